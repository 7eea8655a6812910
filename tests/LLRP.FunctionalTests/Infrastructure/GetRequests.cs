namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>The plain GET the destination tests send, on a connection that stays open or on a new one.</summary>
public static class GetRequests
{
    /// <summary>Sends <c>GET <paramref name="target"/></c> on <paramref name="client"/> and reads its response.</summary>
    public static async Task<RawHttpResponse> GetAsync(this RawHttpClient client, string target)
    {
        await client.SendAsync($"GET {target} HTTP/1.1\r\nHost: client.test\r\n\r\n");
        return await client.ReadResponseAsync();
    }

    /// <summary>Sends <c>GET <paramref name="target"/></c> on a new client connection, reads its response and closes the connection.</summary>
    public static async Task<RawHttpResponse> GetOnNewConnectionAsync(this HostedApp proxy, string target)
    {
        await using var client = await proxy.ConnectAsync();
        return await client.GetAsync(target);
    }
}
