using System.Net;
using System.Runtime.CompilerServices;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.ProxyProtocol;
using LLRP.Tasks;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// The upstream connection one client connection forwards over: kept between requests (per-client strategy) or rented
/// from and returned to the shared pool for each batch (pooled strategy); opened when none is usable; discarded, never
/// reused, after any anomaly. A connection to a destination sending the PROXY protocol carries this client's address, so it
/// is this client connection's only, whatever the strategy (HAProxy marks such connections private): never rented from nor
/// returned to the pool.
/// </summary>
/// <param name="client">The client's address and port, which a PROXY protocol header carries.</param>
/// <param name="local">The address and port the client connected to, which the header carries as its destination.</param>
/// <param name="received">The TLVs of the PROXY protocol header the client connection arrived with, which a v2 header passes on; null for none.</param>
internal sealed class UpstreamSession(IUpstreamConnectionFactory connector, UpstreamConnectionPool? pool, EndPoint? client, EndPoint? local, ProxyHeaderFeature? received = null)
{
    /// <summary>The connection of the batch being forwarded; set by <see cref="EnsureAsync"/>.</summary>
    public UpstreamConnection Connection { get; private set; } = null!;

    /// <summary>Whether a connection is held.</summary>
    public bool HasConnection => Connection is not null;

    /// <summary>Whether connections come from and go back to the shared pool (the pooled strategy).</summary>
    public bool SharesConnections => pool is not null;

    /// <summary>
    /// The client whose address the PROXY protocol header of the next new connection carries, and the address it connected
    /// to: an HTTP/2 stream's, as an exchange serves the streams of any client connection in turn.
    /// </summary>
    public void SpeakFor(EndPoint? streamClient, EndPoint? streamLocal) => (client, local, received) = (streamClient, streamLocal, null);

    /// <summary>
    /// Makes <see cref="Connection"/> an open connection to <paramref name="downstream"/>: the one held if still open and
    /// to that destination (a per-request policy may move the client's requests elsewhere), else a pooled one, else a new one.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwarderError> EnsureAsync(DestinationEndpoint destination)
    {
        if (HasConnection)
        {
            if (ReferenceEquals(Connection.Destination, destination) && Connection.IsIdleAndOpen())
            {
                return ForwarderError.None;
            }

            Discard();
        }

        var shared = destination.ProxyProtocol == ProxyProtocolVersion.None;
        if (shared && pool?.Rent(destination) is { } pooled)
        {
            Connection = pooled;
            return ForwarderError.None;
        }

        try
        {
            Connection = await connector.ConnectAsync(destination, shared ? default : ProxyHeaderWriter.HeaderOf(destination.ProxyProtocol, client, local, received?.Alpn, received?.Authority));
            return ForwarderError.None;
        }
        catch (UpstreamException e)
        {
            return e.Error;
        }
    }

    /// <summary>After a batch: keep the connection (per client, or carrying a PROXY protocol header), give it back (pooled), or discard it.</summary>
    public void Release(bool reusable)
    {
        if (!reusable || Connection.IsAborted)
        {
            Discard();
        }
        else if (pool is not null && Connection.Destination.ProxyProtocol == ProxyProtocolVersion.None)
        {
            pool.Return(Connection);
            Connection = null!;
        }
    }

    /// <summary>Holds a connection another session rented, on which this one's request goes behind that one's (<see cref="ResponseLine"/>).</summary>
    public void Adopt(UpstreamConnection connection)
    {
        Discard();
        Connection = connection;
    }

    /// <summary>
    /// Gives up the connection without closing it: it became a tunnel, which whoever relays it disposes of, or it is the
    /// connection of a line another session holds (<see cref="ResponseLine"/>).
    /// </summary>
    public UpstreamConnection Detach()
    {
        var connection = Connection;
        Connection = null!;
        return connection;
    }

    /// <summary>Closes the connection held, if any; it is never reused.</summary>
    public void Discard()
    {
        if (HasConnection)
        {
            var connection = Connection;
            Connection = null!;
            connection.Abort();
            _ = connection.DisposeAsync();
        }
    }
}
