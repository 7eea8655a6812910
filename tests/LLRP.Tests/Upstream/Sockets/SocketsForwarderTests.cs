using System.Buffers;
using System.Diagnostics.Metrics;
using System.IO.Pipelines;
using System.Text;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tests.Routing;
using LLRP.Upstream;
using LLRP.Upstream.Sockets;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Tests.Upstream.Sockets;

public sealed class SocketsForwarderTests
{
    private static readonly DestinationEndpoint Downstream = DestinationEndpoint.TryParse("http://127.0.0.1:1")!;
    private static readonly RequestLimits Limits = new(8192, 32768, 100);
    private static readonly BodyLimits NoLimits = new(0, 4096, 65536);

    /// <summary>
    /// The relay throws while the response body is relayed and the request body is still arriving: the forward fails with
    /// the relay's exception, and only after the body pump has stopped reading the client input (a pump left reading would
    /// race whoever reads the client connection next).
    /// </summary>
    [Fact]
    public async Task ForwardAsync_RelayThrowsMidBody_PumpStoppedBeforeTheFailureReturns()
    {
        var origin = new PipeOrigin();
        var clientInput = new Pipe();
        var response = new ClientResponseWriter(new FailingFlushPipeWriter(), Metrics(), timed: false);
        var body = new ClientRequestBody(clientInput.Reader, response, NoLimits);
        body.Reset(BodyFraming.ContentLength, 100, expectsContinue: false, sendContinue: false);
        var forwarder = new SocketsForwarder(
            new UpstreamSession(origin, pool: null, client: null, local: null),
            new ResponseRelay(response, 65536, NoLimits, TimeSpan.FromSeconds(30), new UpgradeProtocols([])),
            new RequestRewriter([], [], [], "http"u8.ToArray(), new RewriteSettings(PreserveHost: false, ForwardedHeaders: false, AddVia: false)),
            Limits);
        Assert.Equal(ForwarderError.None, await forwarder.BeginBatchAsync(Downstream, TestClusters.Cluster(1)));
        var message = new ReadOnlySequence<byte>("POST /upload HTTP/1.1\r\nHost: example\r\nContent-Length: 100\r\n\r\n"u8.ToArray());
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(message, head, Limits, out var headLength));
        forwarder.Add(head, message, headLength, bodyLength: 0, BodyKind.Streaming);
        await clientInput.Writer.WriteAsync(new byte[10]);

        var forwarding = forwarder.ForwardAsync(body).AsTask();
        await ReadUntilAsync(origin.Downstream.Input, "\r\n\r\n", extra: 10);
        await origin.Downstream.Output.WriteAsync("HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n0123456789"u8.ToArray());

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => forwarding);
        Assert.Equal("the client output failed", error.Message);
        // A read still pending makes a second reader's TryRead throw ("reading is already in progress").
        Assert.Null(Record.Exception(() => clientInput.Reader.TryRead(out _)));
    }

    private static ProxyMetrics Metrics()
        => new(new ServiceCollection().AddMetrics().BuildServiceProvider().GetRequiredService<IMeterFactory>());

    /// <summary>Reads what the proxy sent upstream until <paramref name="marker"/> and <paramref name="extra"/> bytes after it have come.</summary>
    private static async Task ReadUntilAsync(PipeReader input, string marker, int extra)
    {
        while (true)
        {
            var result = await input.ReadAsync();
            var text = Encoding.ASCII.GetString(result.Buffer.ToArray());
            var end = text.IndexOf(marker, StringComparison.Ordinal);
            if (end >= 0 && text.Length >= end + marker.Length + extra)
            {
                input.AdvanceTo(result.Buffer.End);
                return;
            }

            Assert.False(result.IsCompleted, "the upstream connection closed early");
            input.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }
}
