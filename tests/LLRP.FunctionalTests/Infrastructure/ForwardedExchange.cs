namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// One request through a fresh proxy to a scripted origin answering <see cref="ScriptedOrigin.Ok"/>:
/// what the origin received and what the client got back.
/// </summary>
public sealed record ForwardedExchange(ReceivedRequest Upstream, RawHttpResponse Response, string OriginAuthority)
{
    public static async Task<ForwardedExchange> RunAsync(string request, string mode, params string[] settings)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, settings);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync(request);
        var response = await client.ReadResponseAsync();
        Assert.True(response.StatusCode == 200, $"Expected 200, got:\n{response}");
        return new ForwardedExchange(origin.SingleRequest(), response, origin.Authority);
    }
}
