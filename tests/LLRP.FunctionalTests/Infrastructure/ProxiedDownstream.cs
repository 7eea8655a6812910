namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>The bundled origin with the proxy in front of it.</summary>
public sealed class ProxiedDownstream : IAsyncDisposable
{
    private ProxiedDownstream(HostedApp downstream, HostedApp proxy)
    {
        Downstream = downstream;
        Proxy = proxy;
    }

    public HostedApp Downstream { get; }

    public HostedApp Proxy { get; }

    public static async Task<ProxiedDownstream> StartAsync(string mode, params string[] settings)
    {
        var downstream = await TestHosts.StartDownstreamAsync();
        try
        {
            return new ProxiedDownstream(downstream, await TestHosts.StartProxyAsync(downstream.Url, mode, settings));
        }
        catch
        {
            await downstream.DisposeAsync();
            throw;
        }
    }

    public Task<RawHttpClient> ConnectAsync() => Proxy.ConnectAsync();

    public async ValueTask DisposeAsync()
    {
        await Proxy.DisposeAsync();
        await Downstream.DisposeAsync();
    }
}
