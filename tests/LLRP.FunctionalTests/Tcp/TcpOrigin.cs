using System.Net;
using System.Net.Sockets;
using System.Threading.Channels;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>
/// A TCP destination on 127.0.0.1: it hands each accepted connection to the test (<see cref="AcceptAsync"/>), or, made
/// with <see cref="Echo"/>, sends back every byte it reads and shuts its sending side down at the client's end of stream.
/// </summary>
public sealed class TcpOrigin : IAsyncDisposable
{
    private readonly Channel<Socket> _accepted = Channel.CreateUnbounded<Socket>();
    private readonly List<Socket> _sockets = [];
    private readonly LoopbackAcceptor _acceptor;
    private readonly bool _echo;
    private int _count;

    private TcpOrigin(bool echo)
    {
        _echo = echo;
        _acceptor = new LoopbackAcceptor(OnAcceptedAsync);
    }

    public int Port => _acceptor.Port;

    /// <summary>Its address in a cluster of a TCP route.</summary>
    public string Address => $"tcp://127.0.0.1:{Port}";

    /// <summary>The connections accepted so far.</summary>
    public int Accepted => Volatile.Read(ref _count);

    /// <summary>A destination whose connections the test drives.</summary>
    public static TcpOrigin Manual() => new(echo: false);

    /// <summary>A destination that echoes.</summary>
    public static TcpOrigin Echo() => new(echo: true);

    /// <summary>The next connection accepted, within <see cref="Deadline.Io"/>.</summary>
    public async Task<Socket> AcceptAsync() => await _accepted.Reader.ReadAsync().AsTask().WaitAsync(Deadline.Io);

    /// <summary>An address nothing listens on: the port of a listener just closed.</summary>
    public static string DeadAddress()
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return $"tcp://127.0.0.1:{((IPEndPoint)listener.LocalEndPoint!).Port}";
    }

    public async ValueTask DisposeAsync()
    {
        await _acceptor.StopAsync();
        lock (_sockets)
        {
            foreach (var socket in _sockets)
            {
                socket.Dispose();
            }
        }
    }

    private Task OnAcceptedAsync(Socket socket)
    {
        Interlocked.Increment(ref _count);
        lock (_sockets)
        {
            _sockets.Add(socket);
        }

        if (_echo)
        {
            _ = EchoAsync(socket);
        }
        else
        {
            _accepted.Writer.TryWrite(socket);
        }

        return Task.CompletedTask;
    }

    private static async Task EchoAsync(Socket socket)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            while (true)
            {
                var read = await socket.ReceiveAsync(buffer, SocketFlags.None);
                if (read == 0)
                {
                    socket.Shutdown(SocketShutdown.Send);
                    return;
                }

                await socket.SendAsync(buffer.AsMemory(0, read), SocketFlags.None);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The test reset or closed it.
        }
    }
}
