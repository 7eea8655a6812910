using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// An origin that answers its first request with a large Content-Length body written as fast as the connection takes
/// it, counting the bytes each completed write handed to the kernel. Its send buffer is small, so that what it has
/// written is close to what the proxy has read. Byte i of the body is <see cref="BodyByte"/>(i).
/// </summary>
public sealed class StallingOrigin : IAsyncDisposable
{
    private const int Block = 16 * 1024;

    private readonly LoopbackAcceptor _acceptor;
    private readonly TaskCompletionSource<Socket> _connection = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly long _bodyLength;
    private long _written;
    private Task _writing = Task.CompletedTask;

    public StallingOrigin(long bodyLength)
    {
        _bodyLength = bodyLength;
        _acceptor = new LoopbackAcceptor(socket =>
        {
            socket.SendBufferSize = Block;
            _writing = AnswerAsync(socket);
            return Task.CompletedTask;
        });
    }

    public string Url => $"http://127.0.0.1:{_acceptor.Port}";

    /// <summary>Body bytes handed to the kernel so far.</summary>
    public long Written => Interlocked.Read(ref _written);

    /// <summary>The connection the proxy opened, once the request has been read.</summary>
    public Task<Socket> Connection => _connection.Task;

    public static byte BodyByte(long index) => (byte)((index % 251) + (index / 65536));

    public async ValueTask DisposeAsync()
    {
        await _acceptor.StopAsync();
        if (_connection.Task.IsCompletedSuccessfully)
        {
            _connection.Task.Result.Dispose();
        }

        try
        {
            await _writing;
        }
        catch (Exception e) when (e is IOException or SocketException or ObjectDisposedException)
        {
            // The proxy or the test closed the connection.
        }
    }

    private async Task AnswerAsync(Socket socket)
    {
        var stream = new NetworkStream(socket, ownsSocket: false);
        var head = new List<byte>();
        var one = new byte[1];
        while (head.Count < 4 || head[^4] != '\r' || head[^3] != '\n' || head[^2] != '\r' || head[^1] != '\n')
        {
            if (await stream.ReadAsync(one) == 0)
            {
                return;
            }

            head.Add(one[0]);
        }

        _connection.SetResult(socket);
        await stream.WriteAsync(Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Length: {_bodyLength}\r\n\r\n"));
        var block = new byte[Block];
        for (long offset = 0; offset < _bodyLength; offset += Block)
        {
            var size = (int)Math.Min(Block, _bodyLength - offset);
            for (var i = 0; i < size; i++)
            {
                block[i] = BodyByte(offset + i);
            }

            await stream.WriteAsync(block.AsMemory(0, size));
            Interlocked.Add(ref _written, size);
        }
    }
}
