using System.Diagnostics;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>
/// Upstream failures: before the response starts they become 502/504 with <c>Connection: close</c>;
/// after it started the client connection is cut so that a truncated body never looks complete (RFC 9112 §8).
/// </summary>
public sealed class UpstreamFailureTests
{
    private const string Request = "GET / HTTP/1.1\r\nHost: client.test\r\n\r\n";

    public static TheoryData<string, string> InvalidResponseHeads => LlrpModes.Cross(
        "",
        "NOT-HTTP\r\n\r\n",
        "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Le",
        "HTTP/1.1 200 OK\r\nNoColonHere\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!");

    public static TheoryData<string, bool> Cuts => LlrpModes.Cross(false, true);

    // RFC 9110 §15.6.3.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ConnectionRefused_502Quickly(string mode)
    {
        await using var proxy = await TestHosts.StartProxyAsync($"http://127.0.0.1:{LoopbackPort.Closed()}", mode);
        await using var client = await proxy.ConnectAsync();
        var clock = Stopwatch.StartNew();

        await client.SendAsync(Request);
        var response = await client.ReadResponseAsync();

        Assert.Equal(502, response.StatusCode);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"The 502 took {clock.Elapsed}.");
        await AssertClosedWithConnectionCloseAsync(client, response);
    }

    // RFC 9112 §4, §5 and §6.3 (5): a response head the proxy cannot parse, or an invalid Content-Length, is a 502.
    [Theory]
    [MemberData(nameof(InvalidResponseHeads))]
    public async Task InvalidResponseHead_502(string mode, string originResponse)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.SendAsync(originResponse);
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(Request);
        var response = await client.ReadResponseAsync();

        Assert.Equal(502, response.StatusCode);
        await AssertClosedWithConnectionCloseAsync(client, response);
    }

    // The response head limit (limits.maxResponseHeadersTotalSize, 64 KiB by default) protects the proxy: 502 past it.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task OversizedResponseHead_502(string mode)
    {
        var fields = string.Concat(Enumerable.Range(0, 80).Select(i => $"X-Big-{i}: {new string('v', 1000)}\r\n"));
        await using var origin = ScriptedOrigin.Respond($"HTTP/1.1 200 OK\r\n{fields}Content-Length: 2\r\n\r\nok");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(Request);
        var response = await client.ReadResponseAsync();

        Assert.Equal(502, response.StatusCode);
        await AssertClosedWithConnectionCloseAsync(client, response);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ResetBeforeResponse_502(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            connection.Reset();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(Request);
        var response = await client.ReadResponseAsync();

        Assert.Equal(502, response.StatusCode);
        await AssertClosedWithConnectionCloseAsync(client, response);
    }

    // RFC 9110 §15.6.5.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task NoResponseHeadsInTime_504(string mode)
    {
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            await connection.ReadRequestAsync();
            await connection.Reader.ReadToEndAsync();
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "timeouts.responseHeadersMs=500");
        await using var client = await proxy.ConnectAsync();
        var clock = Stopwatch.StartNew();

        await client.SendAsync(Request);
        var response = await client.ReadResponseAsync();

        Assert.Equal(504, response.StatusCode);
        Assert.InRange(clock.Elapsed, TimeSpan.FromMilliseconds(400), TimeSpan.FromSeconds(5));
        await AssertClosedWithConnectionCloseAsync(client, response);
    }

    [Theory]
    [MemberData(nameof(Cuts))]
    public async Task ContentLengthBodyCut_ClientConnectionCutBeforeFullLength(string mode, bool reset)
    {
        await using var origin = FailingFirstOrigin(
            "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + new string('x', 500),
            reset);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync(Request);

            await Assert.ThrowsAnyAsync<IOException>(() => client.ReadResponseAsync());
        }

        await AssertNewConnectionSucceedsAsync(proxy);
    }

    [Theory]
    [MemberData(nameof(Cuts))]
    public async Task ChunkedBodyCut_TerminatingChunkNeverSent(string mode, bool reset)
    {
        await using var origin = FailingFirstOrigin(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100\r\n" + new string('x', 256) + "\r\n",
            reset);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync(Request);

            await Assert.ThrowsAnyAsync<IOException>(() => client.ReadResponseAsync());
            Assert.DoesNotContain("\r\n0\r\n\r\n", Encoding.Latin1.GetString(client.Received));
        }

        await AssertNewConnectionSucceedsAsync(proxy);
    }

    // RFC 9112 §8: a close-delimited body ended by a connection error (a reset) is incomplete.
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task CloseDelimitedBodyReset_TerminatingChunkNeverSent(string mode)
    {
        await using var origin = FailingFirstOrigin("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\npartial", reset: true);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using (var client = await proxy.ConnectAsync())
        {
            await client.SendAsync(Request);

            await Assert.ThrowsAnyAsync<IOException>(() => client.ReadResponseAsync());
            Assert.DoesNotContain("\r\n0\r\n\r\n", Encoding.Latin1.GetString(client.Received));
        }

        await AssertNewConnectionSucceedsAsync(proxy);
    }

    /// <summary>
    /// An origin whose first connection sends <paramref name="partialResponse"/> and then closes or resets,
    /// and whose later connections answer normally.
    /// </summary>
    private static ScriptedOrigin FailingFirstOrigin(string partialResponse, bool reset) => ScriptedOrigin.Start(async connection =>
    {
        if (connection.Index > 0)
        {
            while (await connection.ReadRequestAsync() is not null)
            {
                await connection.SendAsync(ScriptedOrigin.Ok);
            }

            return;
        }

        await connection.ReadRequestAsync();
        await connection.SendAsync(partialResponse);
        await Task.Delay(100);
        if (reset)
        {
            connection.Reset();
        }
    });

    private static async Task AssertNewConnectionSucceedsAsync(HostedApp proxy)
    {
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync(Request);
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("ok", response.BodyText);
    }

    private static async Task AssertClosedWithConnectionCloseAsync(RawHttpClient client, RawHttpResponse response)
    {
        Assert.Contains("close", response.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
    }
}
