using System.Collections.Concurrent;
using System.Net.Sockets;

namespace LLRP.FaultRun;

/// <summary>
/// One HTTP/2 connection of a <see cref="FaultingHttp2Client"/> (h2c with prior knowledge, one TCP connection), with the
/// ids of the requests in flight on it, so that when the client resets it (<see cref="Abort"/>) every request that was on
/// it counts as faulted by the client.
/// </summary>
internal sealed class Http2FaultConnection : IDisposable
{
    private readonly Lock _gate = new();
    private readonly HashSet<string> _inFlight = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, byte> _clientFaulted;
    private Socket? _socket;
    private bool _aborted;

    /// <param name="clientFaulted">Where the ids of the requests on the connection go when it is aborted.</param>
    public Http2FaultConnection(int proxyPort, ConcurrentDictionary<string, byte> clientFaulted)
    {
        _clientFaulted = clientFaulted;
        var handler = new SocketsHttpHandler
        {
            UseProxy = false,
            EnableMultipleHttp2Connections = false,
            PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
            ConnectCallback = ConnectAsync,
        };
        Client = new HttpClient(handler)
        {
            BaseAddress = new Uri($"http://127.0.0.1:{proxyPort}"),
            Timeout = Timeout.InfiniteTimeSpan,
        };
    }

    public HttpClient Client { get; }

    /// <summary>A request is about to be sent on the connection; false when the connection was aborted (the request is then not sent on it).</summary>
    public bool TryBegin(string id)
    {
        lock (_gate)
        {
            return !_aborted && _inFlight.Add(id);
        }
    }

    /// <summary>The request's exchange is over, whatever its outcome.</summary>
    public void End(string id)
    {
        lock (_gate)
        {
            _inFlight.Remove(id);
        }
    }

    /// <summary>Resets the TCP connection (RST) under every stream on it; their requests count as faulted by the client.</summary>
    public void Abort()
    {
        Socket? socket;
        lock (_gate)
        {
            _aborted = true;
            foreach (var id in _inFlight)
            {
                _clientFaulted[id] = 0;
            }

            socket = _socket;
        }

        if (socket is not null)
        {
            socket.LingerState = new LingerOption(true, 0);
            socket.Dispose();
        }

        Client.Dispose();
    }

    public void Dispose() => Client.Dispose();

    private async ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, CancellationToken token)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(context.DnsEndPoint, token);
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        lock (_gate)
        {
            if (!_aborted)
            {
                _socket = socket;
                return new NetworkStream(socket, ownsSocket: true);
            }
        }

        // Connected after the abort (the handler replacing the connection it lost): nothing may be sent on it.
        socket.Dispose();
        throw new ObjectDisposedException(nameof(Http2FaultConnection), "The connection was aborted.");
    }
}
