using System.Buffers;
using System.Diagnostics.Metrics;
using System.IO.Pipelines;
using System.Text;
using LLRP.Proxy;
using LLRP.ClientSide;
using LLRP.Diagnostics;
using LLRP.Upstream;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Tests.Proxy;

/// <summary>
/// <see cref="TunnelRelay"/> over in-memory pipes (RFC 9110 §7.8: after 101 the connection carries the new protocol's
/// bytes, which the proxy relays as they are): both ways, half-closes, the end of either side, and back-pressure.
/// </summary>
public sealed class TunnelRelayTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task Relays_BothWays_UntilTheDownstreamEnds()
    {
        var tunnel = new Tunnel(halfCloses: true);
        var relay = tunnel.RunAsync();

        await tunnel.ClientSends("hello from the client");
        await tunnel.DownstreamSends("hello from the downstream");

        Assert.Equal("hello from the client", await ReadTextAsync(tunnel.DownstreamReceives, "hello from the client".Length));
        Assert.Equal("hello from the downstream", await ReadTextAsync(tunnel.ClientReceives, "hello from the downstream".Length));
        await tunnel.DownstreamEnds();
        await relay.WaitAsync(Limit);

        // The client's side cannot half-close: the downstream's end ends the tunnel, and what would still go to it is cut.
        Assert.True(tunnel.Upstream.Aborted);
        Assert.True(tunnel.Upstream.Disposed);
    }

    // RFC 9112 §9.6: a half-closed client may still receive; over a socket its end reaches the downstream as a half-close.
    [Fact]
    public async Task ClientEnds_HalfCloses_TheDownstreamAnswerStillRelayed()
    {
        var tunnel = new Tunnel(halfCloses: true);
        var relay = tunnel.RunAsync();

        await tunnel.ClientSends("ping");
        await tunnel.ClientEnds();

        Assert.Equal("ping", await ReadToEndTextAsync(tunnel.DownstreamReceives));
        await tunnel.DownstreamSends("pong");
        await tunnel.DownstreamEnds();
        Assert.Equal("pong", await ReadTextAsync(tunnel.ClientReceives, 4));
        await relay.WaitAsync(Limit);
        Assert.False(tunnel.Upstream.Aborted);
    }

    [Fact]
    public async Task ClientEnds_WithoutHalfClose_UpstreamAborted()
    {
        var tunnel = new Tunnel(halfCloses: false);
        var relay = tunnel.RunAsync();

        await tunnel.ClientEnds();

        await relay.WaitAsync(Limit);
        Assert.True(tunnel.Upstream.Aborted);
        Assert.True(tunnel.Upstream.Disposed);
    }

    /// <summary>
    /// A downstream that reads nothing holds the client back: the relay stops taking the client's bytes once what it
    /// wrote waits unread, so the client's own writes block, and nothing is held beyond the two pipes' limits.
    /// </summary>
    [Fact]
    public async Task DownstreamNotReading_ClientHeldBack_NothingLost()
    {
        const int Chunk = 4096;
        const int Total = 1024 * 1024;
        var tunnel = new Tunnel(halfCloses: true);
        var relay = tunnel.RunAsync();
        var payload = new byte[Total];
        new Random(7).NextBytes(payload);
        var writerWaits = false;

        var writing = Task.Run(async () =>
        {
            for (var offset = 0; offset < Total; offset += Chunk)
            {
                tunnel.ClientOutput.Write(payload.AsSpan(offset, Chunk));
                var flush = tunnel.ClientOutput.FlushAsync();
                Volatile.Write(ref writerWaits, !flush.IsCompleted);
                await flush;
                Volatile.Write(ref writerWaits, false);
            }

            await tunnel.ClientOutput.CompleteAsync();
        });

        // Both sides settle: the client waits on its full pipe, the relay on the downstream's full pipe.
        var deadline = DateTime.UtcNow + Limit;
        long held;
        while (!Volatile.Read(ref writerWaits) || (held = Unread(tunnel.DownstreamReceives)) < Tunnel.PauseThreshold)
        {
            Assert.True(DateTime.UtcNow < deadline, "The client and the relay never both waited.");
            Assert.False(writing.IsCompleted, "The client wrote everything although the downstream read nothing.");
            await Task.Delay(10);
        }

        Assert.True(held <= 2 * Tunnel.PauseThreshold, $"{held} bytes wait for the downstream; at most twice the pipes' limit should.");
        Assert.False(writing.IsCompleted, "The client wrote everything although the downstream read nothing.");

        var received = await ReadToEndAsync(tunnel.DownstreamReceives);
        await writing.WaitAsync(Limit);
        Assert.True(payload.AsSpan().SequenceEqual(received), "The relayed bytes differ from the client's.");
        await tunnel.DownstreamEnds();
        await relay.WaitAsync(Limit);
    }

    /// <summary>Bytes waiting in <paramref name="reader"/>, left there.</summary>
    private static long Unread(PipeReader reader)
    {
        if (!reader.TryRead(out var result))
        {
            return 0;
        }

        reader.AdvanceTo(result.Buffer.Start);
        return result.Buffer.Length;
    }

    private static async Task<string> ReadTextAsync(PipeReader reader, int length)
    {
        while (true)
        {
            var result = await reader.ReadAsync().AsTask().WaitAsync(Limit);
            if (result.Buffer.Length >= length || result.IsCompleted)
            {
                var text = Encoding.ASCII.GetString(result.Buffer.Slice(0, Math.Min(length, result.Buffer.Length)));
                reader.AdvanceTo(result.Buffer.GetPosition(Math.Min(length, result.Buffer.Length)));
                return text;
            }

            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }

    private static async Task<string> ReadToEndTextAsync(PipeReader reader) => Encoding.ASCII.GetString(await ReadToEndAsync(reader));

    private static async Task<byte[]> ReadToEndAsync(PipeReader reader)
    {
        var received = new ArrayBufferWriter<byte>();
        while (true)
        {
            var result = await reader.ReadAsync().AsTask().WaitAsync(Limit);
            foreach (var segment in result.Buffer)
            {
                received.Write(segment.Span);
            }

            reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted)
            {
                return received.WrittenSpan.ToArray();
            }
        }
    }

    /// <summary>A client connection and a downstream end, each a pair of pipes limited to <see cref="PauseThreshold"/> unread bytes.</summary>
    private sealed class Tunnel
    {
        public const int PauseThreshold = 64 * 1024;

        private static readonly PipeOptions Limited = new(pauseWriterThreshold: PauseThreshold, resumeWriterThreshold: PauseThreshold / 2, useSynchronizationContext: false);

        private readonly Pipe _fromClient = new(Limited);
        private readonly Pipe _toClient = new(Limited);
        private readonly Pipe _fromDownstream = new(Limited);
        private readonly Pipe _toDownstream = new(Limited);
        private readonly ProxyMetrics _metrics = new(new ServiceCollection().AddMetrics().BuildServiceProvider().GetRequiredService<IMeterFactory>());

        public Tunnel(bool halfCloses)
        {
            Client = new PipeConnection(new Duplex(_fromClient.Reader, _toClient.Writer));
            Upstream = new FakeUpstream(new Duplex(_fromDownstream.Reader, _toDownstream.Writer), halfCloses);
        }

        public PipeConnection Client { get; }

        public FakeUpstream Upstream { get; }

        public PipeWriter ClientOutput => _fromClient.Writer;

        public PipeReader ClientReceives => _toClient.Reader;

        public PipeReader DownstreamReceives => _toDownstream.Reader;

        public Task RunAsync()
        {
            var activity = new TunnelActivity(_metrics);
            Assert.True(activity.TryOpen(Upstream, new ClientResponseWriter(_toClient.Writer, _metrics, timed: false)));
            return TunnelRelay.RunAsync(Client, Upstream, activity);
        }

        public async Task ClientSends(string text) => await _fromClient.Writer.WriteAsync(Encoding.ASCII.GetBytes(text));

        public async Task DownstreamSends(string text) => await _fromDownstream.Writer.WriteAsync(Encoding.ASCII.GetBytes(text));

        public async Task ClientEnds() => await _fromClient.Writer.CompleteAsync();

        public async Task DownstreamEnds() => await _fromDownstream.Writer.CompleteAsync();
    }

    private sealed record Duplex(PipeReader Input, PipeWriter Output) : IDuplexPipe;

    /// <summary>The client connection: its abort is recorded.</summary>
    private sealed class PipeConnection(IDuplexPipe transport) : ConnectionContext
    {
        public bool Aborted { get; private set; }

        public override IDuplexPipe Transport { get; set; } = transport;

        public override string ConnectionId { get; set; } = "client";

        public override IFeatureCollection Features { get; } = new FeatureCollection();

        public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

        public override void Abort(ConnectionAbortedException abortReason) => Aborted = true;
    }

    /// <summary>The downstream end: an abort ends the relay's read of it, as a closed socket does.</summary>
    private sealed class FakeUpstream(IDuplexPipe transport, bool halfCloses) : IUpstreamTunnel
    {
        public IDuplexPipe Transport { get; } = transport;

        public bool HalfCloses { get; } = halfCloses;

        public bool Aborted { get; private set; }

        public bool Disposed { get; private set; }

        public void Abort()
        {
            Aborted = true;
            Transport.Input.CancelPendingRead();
        }

        public ValueTask DisposeAsync()
        {
            Disposed = true;
            return default;
        }
    }
}
