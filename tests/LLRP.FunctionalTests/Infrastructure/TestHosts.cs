using LLRP.Baselines.HttpClientProxy;
using LLRP.Baselines.YarpProxy;
using LLRP.Downstream;
using LLRP.Hosting;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>Starts the proxy, the bundled origin and the baselines in-process on 127.0.0.1:0.</summary>
public static class TestHosts
{
    /// <summary>Starts the proxy in configuration <paramref name="mode"/> (<see cref="LlrpModes"/>) in front of <paramref name="downstream"/>; each setting is a <c>key=value</c> pair.</summary>
    public static Task<HostedApp> StartProxyAsync(string downstream, string mode, params string[] settings) =>
        StartProxyWithSettingsAsync(downstream, [.. LlrpModes.Settings(mode), .. settings]);

    /// <summary>Starts the proxy in front of <paramref name="downstream"/> with <paramref name="settings"/> alone (<c>key=value</c> pairs).</summary>
    public static Task<HostedApp> StartProxyWithSettingsAsync(string downstream, params string[] settings) =>
        HostedApp.StartAsync(ProxyHost.Build(
        [
            "--urls=http://127.0.0.1:0",
            $"--downstream={downstream}",
            .. settings.Select(setting => "--" + setting),
        ]));

    /// <summary>The names <see cref="StartBaselineAsync"/> takes.</summary>
    public static TheoryData<string> Baselines => new("httpclient", "yarp");

    /// <summary>
    /// Starts a full ASP.NET Core baseline in front of <paramref name="downstream"/>: <c>httpclient</c> (HttpClient in a catch-all
    /// endpoint) or <c>yarp</c> (YARP, one catch-all route, default transforms); each setting is a <c>key=value</c> pair.
    /// </summary>
    public static Task<HostedApp> StartBaselineAsync(string baseline, string downstream, params string[] settings)
    {
        string[] args = ["--urls=http://127.0.0.1:0", $"--downstream={downstream}", .. settings.Select(setting => "--" + setting)];
        return HostedApp.StartAsync(baseline switch
        {
            "httpclient" => HttpClientProxyHost.Build(args),
            "yarp" => YarpProxyHost.Build(args),
            _ => throw new ArgumentOutOfRangeException(nameof(baseline), baseline, "Expected httpclient or yarp."),
        });
    }

    public static Task<HostedApp> StartDownstreamAsync() =>
        HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0"]));

    /// <summary>Starts the bundled origin on https, with the self-signed <see cref="TestCertificate"/>; its address is <c>https://</c> + <see cref="HostedApp.Authority"/>.</summary>
    public static Task<HostedApp> StartTlsDownstreamAsync() =>
        HostedApp.StartAsync(DownstreamHost.Build(["--urls=https://127.0.0.1:0", .. TestCertificate.KestrelArguments]));
}
