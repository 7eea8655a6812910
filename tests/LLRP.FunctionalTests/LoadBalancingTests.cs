using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>Several downstreams are used round-robin, one per client connection.</summary>
public sealed class LoadBalancingTests
{
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task RoundRobin_SuccessiveClientConnectionsAlternate(string mode)
    {
        await using var originA = NamedOrigin("A");
        await using var originB = NamedOrigin("B");
        await using var proxy = await TestHosts.StartProxyAsync($"{originA.Url};{originB.Url}", mode);

        var served = new List<string>();
        for (var i = 0; i < 4; i++)
        {
            served.Add(await ServeTwoRequestsOnOneConnectionAsync(proxy));
        }

        Assert.True(
            served.SequenceEqual(["A", "B", "A", "B"]) || served.SequenceEqual(["B", "A", "B", "A"]),
            $"Downstreams by connection: {string.Join(", ", served)}");
    }

    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task RoundRobin_EachDownstreamKeepsItsPathPrefix(string mode)
    {
        await using var originA = NamedOrigin("A");
        await using var originB = NamedOrigin("B");
        await using var proxy = await TestHosts.StartProxyAsync($"{originA.Url}/a;{originB.Url}/b", mode);

        for (var i = 0; i < 2; i++)
        {
            await ServeTwoRequestsOnOneConnectionAsync(proxy);
        }

        Assert.Equal(["/a/x?1", "/a/x?2"], originA.Requests.Select(request => request.Target));
        Assert.Equal(["/b/x?1", "/b/x?2"], originB.Requests.Select(request => request.Target));
    }

    /// <summary>An origin whose body names it.</summary>
    private static ScriptedOrigin NamedOrigin(string name) =>
        ScriptedOrigin.Respond($"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n{name}");

    /// <summary>Sends two requests on one new client connection; both must reach the same downstream, whose name it returns.</summary>
    private static async Task<string> ServeTwoRequestsOnOneConnectionAsync(HostedApp proxy)
    {
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync("GET /x?1 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var first = await client.ReadResponseAsync();
        await client.SendAsync("GET /x?2 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var second = await client.ReadResponseAsync();

        Assert.Equal(first.BodyText, second.BodyText);
        return first.BodyText;
    }
}
