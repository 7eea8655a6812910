using System.Buffers;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using LLRP.Tasks;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// The transport of a connection to an <c>http</c> destination: the socket itself behind the pipes of
/// <see cref="PipeConnection"/>; what waits in several segments of the output pipe leaves in one system call.
/// </summary>
internal sealed class SocketPipeConnection : PipeConnection
{
    private GatherSender? _gather;

    public SocketPipeConnection(Socket socket, bool inlineScheduling)
        : base(socket, inlineScheduling)
        => Start();

    protected override ValueTask<int> WaitForDataAsync() => Socket.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None);

    protected override ValueTask<int> ReceiveAsync(Memory<byte> buffer) => Socket.ReceiveAsync(buffer, SocketFlags.None);

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    protected override async ValueTask SendAsync(ReadOnlyMemory<byte> data)
    {
        while (!data.IsEmpty)
        {
            data = data[await Socket.SendAsync(data, SocketFlags.None)..];
        }
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    protected override async ValueTask SendAsync(ReadOnlySequence<byte> data)
    {
        _gather ??= new GatherSender();
        if (!_gather.TrySend(Socket, data, out var sent))
        {
            await base.SendAsync(data);
            return;
        }

        var count = await sent;
        if (count < data.Length)
        {
            await base.SendAsync(data.Slice(count));
        }
    }

    protected override ValueTask ShutdownSendAsync()
    {
        Socket.Shutdown(SocketShutdown.Send);
        return default;
    }

    protected override ValueTask ReleaseAsync()
    {
        _gather?.Dispose();
        return default;
    }
}
