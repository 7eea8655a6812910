using System.Buffers;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading.Tasks.Sources;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Sends every segment of a buffer with one system call (<c>sendmsg</c> with a buffer list), where a send per segment
/// would cost one call for each of a pipe's 4 KiB segments. Reused for every send of one connection, one send at a
/// time.
/// </summary>
internal sealed class GatherSender : SocketAsyncEventArgs, IValueTaskSource<int>
{
    private readonly List<ArraySegment<byte>> _segments = [];
    private ManualResetValueTaskSourceCore<int> _completion;

    public GatherSender()
        : base(unsafeSuppressExecutionContextFlow: true)
    {
    }

    /// <summary>
    /// Sends all of <paramref name="buffer"/>, whose segments are arrays (as the pipes' memory pool gives them); false,
    /// with nothing sent, when one is not.
    /// </summary>
    public bool TrySend(Socket socket, in ReadOnlySequence<byte> buffer, out ValueTask<int> sent)
    {
        _segments.Clear();
        foreach (var segment in buffer)
        {
            if (!MemoryMarshal.TryGetArray(segment, out var array))
            {
                sent = default;
                return false;
            }

            _segments.Add(array);
        }

        BufferList = _segments;
        _completion.Reset();
        sent = socket.SendAsync(this) ? new ValueTask<int>(this, _completion.Version)
            : SocketError == SocketError.Success ? new ValueTask<int>(BytesTransferred)
            : ValueTask.FromException<int>(new SocketException((int)SocketError));
        return true;
    }

    protected override void OnCompleted(SocketAsyncEventArgs e)
    {
        if (e.SocketError == SocketError.Success)
        {
            _completion.SetResult(e.BytesTransferred);
        }
        else
        {
            _completion.SetException(new SocketException((int)e.SocketError));
        }
    }

    int IValueTaskSource<int>.GetResult(short token) => _completion.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<int>.GetStatus(short token) => _completion.GetStatus(token);

    void IValueTaskSource<int>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _completion.OnCompleted(continuation, state, token, flags);
}
