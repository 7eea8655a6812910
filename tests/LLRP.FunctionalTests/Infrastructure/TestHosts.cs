using LLRP.Baselines.HttpClientProxy;
using LLRP.Baselines.YarpProxy;
using LLRP.Downstream;
using LLRP.Hosting;
using LLRP.Testing;
using Microsoft.AspNetCore.Builder;

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

    /// <summary>
    /// Starts the proxy in configuration <paramref name="mode"/> with no <c>downstream</c>: its destinations are those of
    /// the appsettings.json in <paramref name="contentRoot"/>, its content root; each setting is a <c>key=value</c> pair.
    /// </summary>
    public static Task<HostedApp> StartProxyInContentRootAsync(ContentRoot contentRoot, string mode, params string[] settings) =>
        HostedApp.StartAsync(BuildProxyInContentRoot(contentRoot, mode, settings));

    /// <summary>Builds, without starting, the proxy <see cref="StartProxyInContentRootAsync"/> starts.</summary>
    public static WebApplication BuildProxyInContentRoot(ContentRoot contentRoot, string mode, params string[] settings) =>
        ProxyHost.Build(
        [
            "--urls=http://127.0.0.1:0",
            $"--contentRoot={contentRoot.Path}",
            .. LlrpModes.Settings(mode).Concat(settings).Select(setting => "--" + setting),
        ]);

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

    /// <summary>Starts the bundled origin on https, with <paramref name="certificate"/>'s PKCS#12 file given to Kestrel as its default certificate.</summary>
    public static Task<HostedApp> StartTlsDownstreamAsync(TestCertificate certificate) =>
        HostedApp.StartAsync(DownstreamHost.Build(
        [
            "--urls=https://127.0.0.1:0",
            $"--Kestrel:Certificates:Default:Path={certificate.PfxPath}",
            $"--Kestrel:Certificates:Default:Password={TestCertificate.Password}",
        ]));

    /// <summary>The proxy settings that make it listen on https with <paramref name="certificate"/>'s PKCS#12 file.</summary>
    public static string[] HttpsListener(TestCertificate certificate) =>
    [
        "urls=https://127.0.0.1:0",
        $"tls.certificatePath={certificate.PfxPath}",
        $"tls.certificatePassword={TestCertificate.Password}",
    ];
}
