using System.Net.Sockets;

namespace LLRP.Upstream.Sockets;

/// <summary>The transport of a connection to an <c>http</c> downstream: the socket itself behind the pipes of <see cref="PipeConnection"/>.</summary>
internal sealed class SocketPipeConnection : PipeConnection
{
    public SocketPipeConnection(Socket socket, bool inlineScheduling)
        : base(socket, inlineScheduling)
        => Start();

    protected override async ValueTask WaitForDataAsync() => await Socket.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None);

    protected override ValueTask<int> ReceiveAsync(Memory<byte> buffer) => Socket.ReceiveAsync(buffer, SocketFlags.None);

    protected override async ValueTask SendAsync(ReadOnlyMemory<byte> data)
    {
        while (!data.IsEmpty)
        {
            data = data[await Socket.SendAsync(data, SocketFlags.None)..];
        }
    }

    protected override ValueTask ShutdownSendAsync()
    {
        Socket.Shutdown(SocketShutdown.Send);
        return default;
    }
}
