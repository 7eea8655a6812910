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
