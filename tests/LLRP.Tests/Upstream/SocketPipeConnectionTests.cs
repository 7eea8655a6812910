using System.Buffers;
using LLRP.Testing;
using System.Net;
using System.Net.Sockets;
using LLRP.Tests.Infrastructure;
using LLRP.Upstream.Sockets;

namespace LLRP.Tests.Upstream;

/// <summary>Raw mode's socket transport over a real loopback connection: gathered sends, and the half-close that ends its output.</summary>
public sealed class SocketPipeConnectionTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(10);

    /// <summary>Megabytes written in 4 KiB pipe segments and flushed once leave in gathered sends, intact and in order.</summary>
    [Fact]
    public async Task ManySegmentsFlushedAtOnce_ArriveIntactAndInOrder()
    {
        var (connection, peer) = await ConnectAsync();
        await using var _ = connection;
        using var __ = peer;
        var payload = new byte[8 * 1024 * 1024];
        new Random(3).NextBytes(payload);

        var reading = ReadToEndAsync(peer);
        var output = connection.Transport.Output;
        for (var offset = 0; offset < payload.Length; offset += 4096)
        {
            payload.AsSpan(offset, 4096).CopyTo(output.GetSpan(4096));
            output.Advance(4096);
        }

        await output.FlushAsync().AsTask().WaitAsync(Limit);
        await output.CompleteAsync();

        var received = await reading.WaitAsync(Limit);
        Assert.True(payload.AsSpan().SequenceEqual(received), "The bytes received differ from the bytes sent.");
    }

    /// <summary>RFC 9112 §9.6: ending the output half-closes the socket; the peer still gets its answer through.</summary>
    [Fact]
    public async Task OutputCompleted_PeerSeesTheEnd_AndItsAnswerStillArrives()
    {
        var (connection, peer) = await ConnectAsync();
        await using var _ = connection;
        using var __ = peer;

        await connection.Transport.Output.WriteAsync("ping"u8.ToArray());
        await connection.Transport.Output.CompleteAsync();
        Assert.Equal("ping"u8.ToArray(), await ReadToEndAsync(peer).WaitAsync(Limit));
        await peer.SendAsync("pong"u8.ToArray());
        peer.Shutdown(SocketShutdown.Send);

        var result = await connection.Transport.Input.ReadAtLeastAsync(4).AsTask().WaitAsync(Limit);
        Assert.Equal("pong"u8.ToArray(), result.Buffer.ToArray());
    }

    /// <summary>A segment that is not an array cannot be gathered: nothing is sent, and the caller sends segment by segment.</summary>
    [Fact]
    public void GatherSender_SegmentNotAnArray_SendsNothing()
    {
        using var native = new NativeSegment(16);
        var first = new BufferSegment(new byte[16], 0);
        var last = first.Append(native.Memory);
        using var sender = new GatherSender();
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);

        Assert.False(sender.TrySend(socket, new ReadOnlySequence<byte>(first, 0, last, 16), out _));
    }

    private static async Task<(SocketPipeConnection Connection, Socket Peer)> ConnectAsync()
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen();
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        var accepting = listener.AcceptAsync();
        await socket.ConnectAsync(listener.LocalEndPoint!);
        return (new SocketPipeConnection(socket, inlineScheduling: false), await accepting.WaitAsync(Limit));
    }

    private static async Task<byte[]> ReadToEndAsync(Socket socket)
    {
        using var received = new MemoryStream();
        var buffer = new byte[64 * 1024];
        int count;
        while ((count = await socket.ReceiveAsync(buffer)) > 0)
        {
            received.Write(buffer, 0, count);
        }

        return received.ToArray();
    }

    /// <summary>Memory that does not show its array, as a pool other than the pipes' might hand out.</summary>
    private sealed class NativeSegment(int length) : MemoryManager<byte>
    {
        private readonly byte[] _hidden = new byte[length];

        public override Span<byte> GetSpan() => _hidden;

        public override MemoryHandle Pin(int elementIndex = 0) => throw new NotSupportedException("Never pinned here.");

        public override void Unpin()
        {
        }

        protected override void Dispose(bool disposing)
        {
        }
    }
}
