using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// RFC 9112 §9.3.1 and RFC 9110 §9.2.2: a reused connection the downstream closed meanwhile may swallow a request.
/// An idempotent request is retried once on a new connection; a non-idempotent one never is.
/// </summary>
public sealed class RetryTests
{
    public static TheoryData<string, bool> Closes => LlrpModes.Cross(false, true);

    public static TheoryData<string, bool> CleanCloses => LlrpModes.Cross(false);

    /// <summary>
    /// Raw mode only: HttpClient retries only after a clean close, and answers 502 after a reset (a documented
    /// difference of the HttpClient modes).
    /// </summary>
    public static TheoryData<string, bool> ResetsRetriedByRawMode => LlrpModes.Cross(LlrpModes.RawOnly, true);

    [Theory]
    [MemberData(nameof(CleanCloses))]
    [MemberData(nameof(ResetsRetriedByRawMode))]
    public async Task StaleUpstreamConnection_GetRetriedOnceOnNewConnection(string mode, bool reset)
    {
        await using var origin = StaleAfterFirstResponseOrigin(reset);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var first = await client.ReadResponseAsync();
        await client.SendAsync("GET /second HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var second = await client.ReadResponseAsync();

        Assert.Equal("conn0", first.BodyText);
        Assert.True(second.StatusCode == 200 && second.BodyText == "conn1", $"Expected the retry's answer, got:\n{second}");
        Assert.Equal(["/first", "/second"], origin.Connections[0].Requests.Select(request => request.Target));
        Assert.Equal(["/second"], origin.Connections[1].Requests.Select(request => request.Target));
        Assert.Equal(2, origin.Connections.Count);
    }

    [Theory]
    [MemberData(nameof(Closes))]
    public async Task StaleUpstreamConnection_PostNotRetried502(string mode, bool reset)
    {
        await using var origin = StaleAfterFirstResponseOrigin(reset);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /first HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await client.ReadResponseAsync();
        await client.SendAsync("POST /second HTTP/1.1\r\nHost: client.test\r\nContent-Length: 4\r\n\r\nbody");
        var second = await client.ReadResponseAsync("POST");

        Assert.Equal(502, second.StatusCode);
        Assert.Contains("close", second.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        Assert.Single(origin.Requests, request => request.Method == "POST");
    }

    /// <summary>
    /// An origin whose first connection answers one request keep-alive, then reads the next and closes (or resets)
    /// without answering, as a server whose idle timeout fired just as the request arrived; later connections answer all.
    /// </summary>
    internal static ScriptedOrigin StaleAfterFirstResponseOrigin(bool reset) => ScriptedOrigin.Start(async connection =>
    {
        var answered = 0;
        while (await connection.ReadRequestAsync() is not null)
        {
            if (connection.Index == 0 && answered == 1)
            {
                if (reset)
                {
                    connection.Reset();
                }

                return;
            }

            await connection.SendAsync($"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nconn{connection.Index}");
            answered++;
        }
    });
}
