using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// A TCP relay on 127.0.0.1:0 in front of a loopback port: it passes bytes through untouched (TLS included), counts the
/// connections it accepts and keeps the first bytes of each direction, to observe a TLS handshake on the wire.
/// </summary>
public sealed class TcpRelay : IAsyncDisposable
{
    private readonly TcpListener _listener;
    private readonly int _targetPort;
    private readonly CancellationTokenSource _stopping = new();
    private readonly List<RelayedConnection> _connections = [];
    private readonly Task _accepting;

    private TcpRelay(int targetPort)
    {
        _targetPort = targetPort;
        _listener = new TcpListener(IPAddress.Loopback, 0);
        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _accepting = AcceptAsync();
    }

    public int Port { get; }

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
        await _stopping.CancelAsync();
        _listener.Stop();
        await _accepting;
        foreach (var connection in Connections)
        {
            await connection.DisposeAsync();
        }

        _stopping.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (true)
        {
            Socket client;
            try
            {
                client = await _listener.AcceptSocketAsync(_stopping.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException or InvalidOperationException)
            {
                return;
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
                continue;
            }

            lock (_connections)
            {
                _connections.Add(new RelayedConnection(client, server));
            }
        }
    }
}
