using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>RFC 9112 §9.3.2: pipelined requests are all answered, in the order received.</summary>
public sealed class PipeliningTests
{
    private static readonly (string Method, string Request, int Status, string Body)[] Exchanges =
    [
        ("GET", Get("/?s=1"), 200, DownstreamBody.PatternText(1)),
        ("GET", Get("/?s=100"), 200, DownstreamBody.PatternText(100)),
        ("HEAD", "HEAD /?s=50 HTTP/1.1\r\nHost: pipelined.test\r\n\r\n", 200, ""),
        ("GET", Get("/?s=5000"), 200, DownstreamBody.PatternText(5000)),
        ("POST", "POST /echo HTTP/1.1\r\nHost: pipelined.test\r\nContent-Length: 14\r\n\r\npipelined-body", 200, "pipelined-body"),
        ("GET", Get("/chunked?s=300&n=3"), 200, DownstreamBody.PatternText(300)),
        ("POST", "POST /sink HTTP/1.1\r\nHost: pipelined.test\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 200, DownstreamBody.SinkReport("abc"u8.ToArray())),
        ("GET", Get("/status?code=204"), 204, ""),
        ("GET", Get("/?s=0"), 200, ""),
        ("GET", Get("/?s=26"), 200, DownstreamBody.PatternText(26)),
        ("POST", "POST /echo HTTP/1.1\r\nHost: pipelined.test\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nlast\r\n0\r\n\r\n", 200, "last"),
        ("GET", Get("/?s=70000"), 200, DownstreamBody.PatternText(70000)),
    ];

    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Pipelined_AllInOneWrite_AnsweredInOrder(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync(string.Concat(Exchanges.Select(exchange => exchange.Request)));

        await AssertResponsesInOrderAsync(client);
    }

    // The requests arrive split at arbitrary points, so the proxy must resume parsing incomplete heads and bodies.
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Pipelined_SplitAtRandomPoints_AnsweredInOrder(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        var sending = client.SendInPiecesAsync(Encoding.Latin1.GetBytes(string.Concat(Exchanges.Select(exchange => exchange.Request))), new Random(9), 7);

        await AssertResponsesInOrderAsync(client);
        await sending;
    }

    // A client that pipelines without reading meets back-pressure: the proxy stops taking requests once the responses it
    // holds for the client pass its output buffer, instead of holding every response in memory; all are answered once
    // the client reads, in order.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task PipelinedWithoutReading_ProxyStopsForwardingUntilTheClientReads(string mode)
    {
        const int Requests = 5000;
        var padding = new string('p', 8000);
        await using var origin = ScriptedOrigin.Respond(request =>
            $"HTTP/1.1 200 OK\r\nX-Target: {request.Target}\r\nX-Padding: {padding}\r\nContent-Length: 0\r\n\r\n");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(string.Concat(Enumerable.Range(0, Requests).Select(i => $"HEAD /{i} HTTP/1.1\r\nHost: pipelined.test\r\n\r\n")));
        var forwarded = await StableCountAsync(() => origin.Requests.Count);

        Assert.True(forwarded < Requests / 2, $"{forwarded} of {Requests} requests were forwarded while the client read nothing.");
        for (var i = 0; i < Requests; i++)
        {
            var response = await client.ReadResponseAsync("HEAD");
            Assert.Equal($"/{i}", response.Head.Get("X-Target"));
        }
    }

    /// <summary>The value of <paramref name="count"/> once it has not changed for half a second (within the I/O deadline).</summary>
    private static async Task<int> StableCountAsync(Func<int> count)
    {
        var last = -1;
        var unchangedSince = Environment.TickCount64;
        using var limit = new CancellationTokenSource(Deadline.Io);
        while (Environment.TickCount64 - unchangedSince < 500)
        {
            await Task.Delay(50, limit.Token);
            var current = count();
            if (current != last)
            {
                (last, unchangedSince) = (current, Environment.TickCount64);
            }
        }

        return last;
    }

    private static string Get(string target) => $"GET {target} HTTP/1.1\r\nHost: pipelined.test\r\n\r\n";

    private static async Task AssertResponsesInOrderAsync(RawHttpClient client)
    {
        foreach (var (method, request, status, body) in Exchanges)
        {
            var response = await client.ReadResponseAsync(method);
            Assert.True(response.StatusCode == status && response.BodyText.Trim() == body, $"For:\n{request}\ngot:\n{response}");
        }
    }
}
