using System.Collections.Concurrent;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Tasks;
using LLRP.Upstream.Sockets;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// Raw mode's HTTP/2 connections to destinations, per destination (<see cref="Http2DestinationConnections"/>); shared by
/// every stream. An <c>http</c> destination is reached by prior knowledge (RFC 9113 §3.3), an <c>https</c> one by ALPN
/// <c>h2</c> (§3.2): where it chooses <c>http/1.1</c> and its cluster lets HTTP/2 fall back (<c>RequestVersionOrLower</c>),
/// that is remembered for the idle timeout (<see cref="ChoseHttp11"/>) and its requests go over HTTP/1.1, h2 asked again
/// after it (HttpClient asks it of every new connection); where the cluster asks HTTP/2 exactly, the connection counts as
/// a failed TLS handshake, logged with why (502). Connections that carried no stream for the idle timeout are closed by
/// a sweep once a second, started with the first destination (a timer firing on a proxy that never opens an HTTP/2
/// connection would wake the thread pool every second, whose workers spin before they sleep again: measured on one
/// core, 200–500 more <c>sched_yield</c> calls a second, idle or under HTTP/1.1 load); all of them when the pool is
/// disposed.
/// </summary>
internal sealed class Http2ClientPool : IDisposable
{
    private readonly ConcurrentDictionary<(DestinationEndpoint, bool OffersHttp11), Http2DestinationConnections> _destinations = new();
    /// <summary>When each <c>https</c> destination that chose <c>http/1.1</c> did (<see cref="Environment.TickCount64"/>).</summary>
    private readonly ConcurrentDictionary<DestinationEndpoint, long> _choseHttp11 = new();
    private readonly Func<(DestinationEndpoint, bool), Http2DestinationConnections> _create;
    private readonly IUpstreamConnectionFactory _connector;
    private readonly UpstreamConnector _tls;
    private readonly FailureLog _failures;
    private readonly long _idleTimeoutMs;
    private readonly OnDemandHeartbeat _sweeper;
    private volatile bool _disposed;

    /// <param name="connector">Opens the connections to <c>http</c> destinations (TCP, the epoll transport in raw mode when configured).</param>
    /// <param name="tls">Opens the connections to <c>https</c> destinations, with ALPN.</param>
    /// <param name="failures">Where a destination that refuses <c>h2</c> to a cluster asking it exactly is logged.</param>
    /// <param name="maxResponseHeadSize">The most bytes a response's fields may take.</param>
    /// <param name="connectTimeout">Also the time a new connection has to send its SETTINGS.</param>
    /// <param name="idleTimeout">A connection with no stream for this long is closed (<c>pool.idleTimeoutMs</c>).</param>
    public Http2ClientPool(
        IUpstreamConnectionFactory connector, UpstreamConnector tls, FailureLog failures, int maxResponseHeadSize, TimeSpan connectTimeout, TimeSpan idleTimeout)
    {
        (_connector, _tls, _failures) = (connector, tls, failures);
        _idleTimeoutMs = (long)idleTimeout.TotalMilliseconds;
        _sweeper = new OnDemandHeartbeat(static state => ((Http2ClientPool)state!).CloseIdle(), this);
        _create = key =>
        {
            _sweeper.Start();
            return new Http2DestinationConnections(key.Item1, key.Item2, this, maxResponseHeadSize, connectTimeout);
        };
    }

    /// <summary>
    /// A connection to <paramref name="destination"/> with a stream slot reserved, or why none could be had;
    /// <paramref name="offersHttp11"/>: ALPN offers <c>http/1.1</c> after <c>h2</c> (the cluster may fall back).
    /// </summary>
    public ValueTask<(Http2ClientConnection? Connection, ForwarderError Error)> AcquireAsync(DestinationEndpoint destination, bool offersHttp11)
        => _destinations.GetOrAdd((destination, offersHttp11), _create).AcquireAsync();

    /// <summary>
    /// The <c>https</c> destination chose <c>http/1.1</c> when offered both by ALPN less than the idle timeout ago: HTTP/2 is
    /// not asked of it meanwhile; after it, the next stream asks h2 again.
    /// </summary>
    public bool ChoseHttp11(DestinationEndpoint destination)
    {
        if (!_choseHttp11.TryGetValue(destination, out var since))
        {
            return false;
        }

        if (Environment.TickCount64 - since < _idleTimeoutMs)
        {
            return true;
        }

        _choseHttp11.TryRemove(new KeyValuePair<DestinationEndpoint, long>(destination, since));
        return false;
    }

    /// <summary>Opens a connection that speaks HTTP/2 to <paramref name="destination"/>.</summary>
    /// <exception cref="UpstreamException">Refused, unreachable, timed out, the TLS handshake failed or chose other than <c>h2</c>.</exception>
    public async ValueTask<UpstreamConnection> ConnectAsync(DestinationEndpoint destination, bool offersHttp11)
    {
        if (!destination.IsTls)
        {
            return await _connector.ConnectAsync(destination, default);
        }

        var (connection, http2) = await _tls.ConnectHttp2Async(destination, offersHttp11);
        if (http2)
        {
            return connection;
        }

        connection.Abort();
        await connection.DisposeAsync();
        if (offersHttp11)
        {
            _choseHttp11[destination] = Environment.TickCount64;
        }
        else
        {
            _failures.TlsHandshakeFailed(destination.Host, "ALPN: the destination did not choose h2, which its cluster asks with RequestVersionExact or RequestVersionOrHigher");
        }

        throw new UpstreamException(ForwarderError.TlsHandshakeFailed);
    }

    /// <summary>
    /// Stops the sweep and ends every connection of every destination with GOAWAY NO_ERROR, then aborts it
    /// (<see cref="Http2ClientConnection.Shutdown"/>), as the HTTP/1.1 pool closes its idle connections when disposed.
    /// </summary>
    public void Dispose()
    {
        _disposed = true;
        _sweeper.Dispose();
        foreach (var destination in _destinations.Values)
        {
            destination.Shutdown();
        }
    }

    private void CloseIdle()
    {
        if (_disposed)
        {
            return;
        }

        var now = Environment.TickCount64;
        foreach (var destination in _destinations.Values)
        {
            destination.CloseIdle(now, _idleTimeoutMs);
        }
    }
}
