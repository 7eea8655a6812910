using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>The <c>LLRP</c> meter counts what happened, once, and its gauges come back down.</summary>
public sealed class MetricsTests
{
    private const string Get = "GET / HTTP/1.1\r\nHost: client.test\r\n\r\n";

    public static TheoryData<string, string, string> Rejections => LlrpModes.Cross(
        ("GET / HTTP/1.1\r\n\r\n", "MissingHost"),
        ("GET / HTTP/1.1\nHost: a\r\n\r\n", "BareLineFeed"),
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", "ObsoleteLineFolding"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "ContentLengthWithTransferEncoding"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n", "BodyTooLarge"));

    public static TheoryData<string, bool> StreamedBodies => LlrpModes.Cross(false, true);

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Requests_CountedOncePerForwardedResponse(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 5; i++)
        {
            await client.SendAsync(Get);
            await client.ReadResponseAsync();
        }

        await client.SendAsync(Get + Get + Get);
        for (var i = 0; i < 3; i++)
        {
            await client.ReadResponseAsync();
        }

        // A request is counted once its exchange has ended, which the client may see a moment before: the response's
        // last bytes can leave while the forwarder returns. Its duration is recorded just after the count.
        await metrics.WaitForSumAsync("llrp.requests", 8);
        await Deadline.UntilAsync(() => metrics.Count("llrp.request.duration") >= 8, "the eighth request duration");
        Assert.Equal(8, metrics.Count("llrp.request.duration"));
        Assert.Equal(8, metrics.Sum("llrp.requests", "http.response.status_code", 200));
        Assert.Equal(0, metrics.Sum("llrp.requests.rejected"));
        Assert.Equal(0, metrics.Sum("llrp.upstream.errors"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Requests_TaggedWithTheResponseStatusCode(string mode)
    {
        var statuses = new Queue<int>([200, 404, 503]);
        await using var origin = ScriptedOrigin.Respond(_ => $"HTTP/1.1 {statuses.Dequeue()} Whatever\r\nContent-Length: 0\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 3; i++)
        {
            await client.SendAsync(Get);
            await client.ReadResponseAsync();
        }

        await metrics.WaitForSumAsync("llrp.requests", 3);
        Assert.Equal(1, metrics.Sum("llrp.requests", "http.response.status_code", 200));
        Assert.Equal(1, metrics.Sum("llrp.requests", "http.response.status_code", 404));
        Assert.Equal(1, metrics.Sum("llrp.requests", "http.response.status_code", 503));
    }

    [Theory]
    [MemberData(nameof(Rejections))]
    public async Task Rejected_CountedWithReasonAndNotAsRequest(string mode, string request, string reason)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "limits.maxRequestBodySize=1000");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(request);
        var response = await client.ReadResponseAsync();

        Assert.InRange(response.StatusCode, 400, 499);
        Assert.True(metrics.Sum("llrp.requests.rejected", "reason", reason) == 1, metrics.Describe("llrp.requests.rejected"));
        Assert.Equal(1, metrics.Sum("llrp.requests.rejected"));
        Assert.Equal(0, metrics.Sum("llrp.requests"));
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task UpstreamErrors_CountedWithErrorType(string mode)
    {
        await using var origin = ScriptedOrigin.Respond("HTTP/1.1 2000 OK\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(Get);
        var response = await client.ReadResponseAsync();

        Assert.Equal(502, response.StatusCode);
        Assert.True(metrics.Sum("llrp.upstream.errors", "error.type", "InvalidResponse") == 1, metrics.Describe("llrp.upstream.errors"));
        Assert.Equal(0, metrics.Sum("llrp.requests"));
    }

    // Upstream connections: one per client connection, closed with it (raw per client, and the modes on HttpClient with
    // their own invokers); or one, reused by each client in turn and kept idle in the pool (raw pooled).
    [Theory]
    [InlineData(LlrpModes.RawPerClient, 3, 0)]
    [InlineData(LlrpModes.RawPooled, 1, 1)]
    [InlineData(LlrpModes.HttpClient, 3, 0)]
    [InlineData(LlrpModes.HttpClientWithContext, 3, 0)]
    [InlineData(LlrpModes.Yarp, 3, 0)]
    public async Task ActiveConnections_UpWhileOpenThenBackDown(string mode, int upstreamWhileOpen, int upstreamAfterwards)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        var clients = new List<RawHttpClient>();
        for (var i = 0; i < 3; i++)
        {
            var client = await proxy.ConnectAsync();
            clients.Add(client);
            await client.SendAsync(Get);
            await client.ReadResponseAsync();
        }

        Assert.Equal(3, metrics.Sum("llrp.client.active_connections"));
        Assert.Equal(upstreamWhileOpen, metrics.Sum("llrp.upstream.active_connections"));
        foreach (var client in clients)
        {
            await client.DisposeAsync();
        }

        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        await metrics.WaitForSumAsync("llrp.upstream.active_connections", upstreamAfterwards);
    }

    // Every byte read from and written to the client is counted, a request body streamed upstream included.
    [Theory]
    [MemberData(nameof(StreamedBodies))]
    public async Task Bytes_CountEveryByteBothWays(string mode, bool streamedBody)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var metrics = new ProxyMeterRecorder(proxy);
        var bodyLength = streamedBody ? 100000 : 1000;
        var head = $"POST /upload HTTP/1.1\r\nHost: client.test\r\nContent-Length: {bodyLength}\r\n\r\n";
        var body = new string('b', bodyLength);
        var client = await proxy.ConnectAsync();
        await using (client)
        {
            if (streamedBody)
            {
                await client.SendAsync(head);
                await Deadline.UntilAsync(() => origin.BytesReceived > 0, "The head reaching the origin");
                await client.SendAsync(body);
            }
            else
            {
                await client.SendAsync(head + body);
            }

            await client.ReadResponseAsync();
            await client.SendAsync(Get);
            await client.ReadResponseAsync();
        }

        await metrics.WaitForSumAsync("llrp.client.active_connections", 0);
        Assert.Equal(Encoding.Latin1.GetByteCount(head + body + Get), metrics.Sum("llrp.client.bytes_received"));
        Assert.Equal(client.Received.Length, metrics.Sum("llrp.client.bytes_sent"));
    }
}
