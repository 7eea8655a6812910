using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>The pooled strategy closes upstream connections that stayed idle past <c>pool.idleTimeoutMs</c>.</summary>
public sealed class PooledIdleTimeoutTests
{
    private const string Get = "GET / HTTP/1.1\r\nHost: client.test\r\n\r\n";

    [Fact]
    public async Task IdlePooledConnection_ClosedAfterIdleTimeout_NextRequestOpensANewOne()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPooled, "pool.idleTimeoutMs=1000");

        var first = await proxy.ConnectAsync();
        await using (first)
        {
            await first.SendAsync(Get);
            Assert.Equal(200, (await first.ReadResponseAsync()).StatusCode);
        }

        await origin.ConnectionsEndedAsync();
        Assert.Single(origin.Connections);

        var second = await proxy.ConnectAsync();
        await using (second)
        {
            await second.SendAsync(Get);
            Assert.Equal(200, (await second.ReadResponseAsync()).StatusCode);
        }

        Assert.Equal(2, origin.Connections.Count);
    }

    [Fact]
    public async Task PooledConnection_ReusedWithinIdleTimeout()
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPooled, "pool.idleTimeoutMs=60000");

        for (var i = 0; i < 2; i++)
        {
            var client = await proxy.ConnectAsync();
            await using (client)
            {
                await client.SendAsync(Get);
                Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
            }
        }

        Assert.Single(origin.Connections);
    }
}
