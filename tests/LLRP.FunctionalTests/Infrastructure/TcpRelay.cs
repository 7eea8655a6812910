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

    private TcpRelay(int targetPort)
    {
        _targetPort = targetPort;
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

    public static TcpRelay Start(int targetPort) => new(targetPort);

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
