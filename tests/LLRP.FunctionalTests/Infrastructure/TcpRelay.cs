using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// A TCP relay on 127.0.0.1:0 in front of a loopback port: it passes bytes through untouched (TLS included), counts the
/// connections it accepts and keeps the first bytes of each direction, to observe a TLS handshake on the wire.
/// </summary>
public sealed class TcpRelay : IAsyncDisposable
{
    private readonly int _targetPort;
    private readonly List<RelayedConnection> _connections = [];
    private readonly LoopbackAcceptor _acceptor;
    private readonly TimeSpan _firstDelay;
    private int _accepted;

    private TcpRelay(int targetPort, TimeSpan firstDelay)
    {
        (_targetPort, _firstDelay) = (targetPort, firstDelay);
        _acceptor = new LoopbackAcceptor(RelayAsync);
    }

    public int Port => _acceptor.Port;

    /// <summary>The connections accepted so far, in order.</summary>
    public IReadOnlyList<RelayedConnection> Connections
    {
        get
        {
            lock (_connections)
            {
                return _connections.ToArray();
            }
        }
    }

    /// <param name="firstDelay">How long the first connection accepted waits before the relay connects it on (a slow handshake).</param>
    public static TcpRelay Start(int targetPort, TimeSpan firstDelay = default) => new(targetPort, firstDelay);

    public async ValueTask DisposeAsync()
    {
        await _acceptor.StopAsync();
        foreach (var connection in Connections)
        {
            await connection.DisposeAsync();
        }
    }

    private async Task RelayAsync(Socket client)
    {
        if (Interlocked.Increment(ref _accepted) == 1 && _firstDelay > TimeSpan.Zero)
        {
            await Task.Delay(_firstDelay);
        }

        var server = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await Deadline.RunAsync(token => server.ConnectAsync(new IPEndPoint(IPAddress.Loopback, _targetPort), token), "The relay's connect");
        }
        catch
        {
            server.Dispose();
            client.Dispose();
            return;
        }

        lock (_connections)
        {
            _connections.Add(new RelayedConnection(client, server));
        }
    }
}
