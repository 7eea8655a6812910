using LLRP.Downstream;
using LLRP.Hosting;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>Starts the proxy and the bundled origin in-process on 127.0.0.1:0.</summary>
public static class TestHosts
{
    /// <summary>Starts the proxy in front of <paramref name="downstream"/>; each setting is a <c>key=value</c> pair.</summary>
    public static Task<HostedApp> StartProxyAsync(string downstream, string strategy, params string[] settings) =>
        HostedApp.StartAsync(ProxyHost.Build(
        [
            "--urls=http://127.0.0.1:0",
            $"--downstream={downstream}",
            $"--upstreamConnections={strategy}",
            .. settings.Select(setting => "--" + setting),
        ]));

    public static Task<HostedApp> StartDownstreamAsync() =>
        HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0"]));
}
