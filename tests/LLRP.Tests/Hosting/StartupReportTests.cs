using System.Globalization;
using System.Reflection;
using LLRP.Configuration;
using LLRP.Hosting;
using LLRP.Testing;
using LLRP.Tests.Configuration;

namespace LLRP.Tests.Hosting;

/// <summary>The start-up report names every configuration key with its effective value, and the addresses really bound.</summary>
public sealed class StartupReportTests
{
    public static TheoryData<string> EveryKey => new(typeof(ConfigurationKeys)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(constant => (string)constant.GetRawConstantValue()!));

    [Theory]
    [MemberData(nameof(EveryKey))]
    public void Describe_EveryKeyWithItsValue(string key)
    {
        var report = StartupReport.Describe(ConfiguredOptions.Read(), ["http://[::]:8080"], [], ["http://127.0.0.1:8081"], transportQueues: 2);

        Assert.Contains($" {key}=", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_EffectiveValuesNotDefaults()
    {
        var options = ConfiguredOptions.Read(
            ("downstream", "http://backend:9000/api"),
            ("mode", "httpclient"),
            ("limits.maxRequestBodySize", "1234"),
            ("timeouts.keepAliveMs", "5000"),
            ("threadCount", "3"));

        var report = StartupReport.Describe(options, ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Contains(" downstream=http://backend:9000/api", report, StringComparison.Ordinal);
        Assert.Contains(" mode=httpclient httpclient=true httpclient-httpcontext=false yarp=false", report, StringComparison.Ordinal);
        Assert.Contains(" limits.maxRequestBodySize=1234 ", report, StringComparison.Ordinal);
        Assert.Contains(" timeouts.keepAliveMs=5000 ", report, StringComparison.Ordinal);
        Assert.Contains(" threadCount=3 ", report, StringComparison.Ordinal);
        Assert.DoesNotContain("bundled origin", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_DefaultUrls_SaysEveryInterfaceAndHowToListenOnLoopbackOnly()
    {
        var report = StartupReport.Describe(ConfiguredOptions.Read(), ["http://[::]:8080"], [], ["http://127.0.0.1:8081"], transportQueues: 2);

        Assert.StartsWith("LLRP listening on http://[::]:8080 (urls=http://*:8080: every interface; urls=http://127.0.0.1:8080 for loopback only)", report, StringComparison.Ordinal);
        Assert.Contains("the bundled origin, in-process, listening on http://127.0.0.1:8081", report, StringComparison.Ordinal);
        Assert.Contains(" threadCount=default (2) ", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_WildcardAmongUrls_LoopbackAdviceKeepsItsPort()
    {
        var report = StartupReport.Describe(ConfiguredOptions.Read(("urls", "http://localhost:7000;http://[::]:9000")), ["http://localhost:7000", "http://[::]:9000"], [], [], transportQueues: 2);

        Assert.Contains("every interface; urls=http://[::1]:9000 for loopback only", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_AdminUrls_ListedApartFromTheProxysAddresses()
    {
        var options = ConfiguredOptions.Read(("urls", "http://127.0.0.1:8080"), ("admin.urls", "http://127.0.0.1:0"));

        var lines = StartupReport.Describe(options, ["http://127.0.0.1:8080"], ["http://127.0.0.1:9100"], [], transportQueues: 2).Split(Environment.NewLine);

        Assert.Equal("LLRP listening on http://127.0.0.1:8080 (urls=http://127.0.0.1:8080)", lines[0]);
        Assert.Equal("  admin (/metrics, /healthz) listening on http://127.0.0.1:9100 (admin.urls=http://127.0.0.1:0)", lines[1]);
    }

    [Fact]
    public void Describe_LoopbackUrls_NoInterfaceAdvice()
    {
        var report = StartupReport.Describe(ConfiguredOptions.Read(("urls", "http://127.0.0.1:8080")), ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.DoesNotContain("every interface", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_Certificate_SubjectThumbprintExpiryNeverThePassword()
    {
        using var certificate = TestCertificate.Create();
        var options = ConfiguredOptions.Read(
            ("urls", "https://127.0.0.1:8443"),
            ("tls.certificatePath", certificate.PfxPath),
            ("tls.certificatePassword", TestCertificate.Password));

        var report = StartupReport.Describe(options, ["https://127.0.0.1:8443"], [], [], transportQueues: 2);

        Assert.Contains($" tls.certificatePath={certificate.PfxPath} (subject CN=localhost, thumbprint {certificate.Certificate.Thumbprint}, expires ", report, StringComparison.Ordinal);
        Assert.Contains(certificate.Certificate.NotAfter.ToUniversalTime().ToString("yyyy-MM-dd", CultureInfo.InvariantCulture), report, StringComparison.Ordinal);
        Assert.Contains(" tls.certificatePassword=(set) ", report, StringComparison.Ordinal);
        Assert.DoesNotContain(TestCertificate.Password, report, StringComparison.Ordinal);
        Assert.DoesNotContain("WARNING", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_DownstreamInsecure_Warns()
    {
        var report = StartupReport.Describe(ConfiguredOptions.Read(("tls.downstreamInsecure", "true")), ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Contains(" tls.downstreamInsecure=true", report, StringComparison.Ordinal);
        Assert.Contains("\n  WARNING: tls.downstreamInsecure=true: the certificates of https destinations are not validated", report, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("raw", "epoll", "llrp", " pool.pipelineDepth=8\n")]
    [InlineData("httpclient", "epoll", "llrp", " pool.pipelineDepth=8 (no effect: it needs mode=raw, upstreamConnections=pooled, transport=epoll and http2.server=llrp)")]
    [InlineData("raw", "sockets", "llrp", " pool.pipelineDepth=8 (no effect:")]
    [InlineData("raw", "epoll", "kestrel", " pool.pipelineDepth=8 (no effect:")]
    public void Describe_PipelineDepth_SaysWhenItHasNoEffect(string mode, string transport, string server, string expected)
    {
        var options = ConfiguredOptions.Read(("mode", mode), ("transport", transport), ("http2.server", server), ("pool.pipelineDepth", "8"));

        var report = StartupReport.Describe(options, ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Contains(expected, report, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("false", "HTTP/2 to destinations on one connection per destination (EnableMultipleHttp2Connections false)")]
    [InlineData("true", "HTTP/2 to destinations on several connections when one's streams are all in use")]
    public void Describe_Http2Cluster_SaysHowManyConnectionsPerDestination(string multiple, string expected)
    {
        var options = ConfiguredOptions.Read(
            ("ReverseProxy:Routes:all:ClusterId", "h2"),
            ("ReverseProxy:Routes:all:Match:Path", "{**rest}"),
            ("ReverseProxy:Clusters:h2:Destinations:one:Address", "http://127.0.0.1:8081"),
            ("ReverseProxy:Clusters:h2:HttpRequest:Version", "2"),
            ("ReverseProxy:Clusters:h2:HttpClient:EnableMultipleHttp2Connections", multiple));

        var report = StartupReport.Describe(options, ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Contains("  cluster h2: ", report, StringComparison.Ordinal);
        Assert.Contains(expected, report, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("raw", true)]
    [InlineData("httpclient", false)]
    [InlineData("yarp", false)]
    public void Describe_Http2Cluster_SaysWhenRawModeSendsHttp11ClientsOverHttpClient(string mode, bool overHttpClient)
    {
        var options = ConfiguredOptions.Read(
            ("mode", mode),
            ("ReverseProxy:Routes:all:ClusterId", "h2"),
            ("ReverseProxy:Routes:all:Match:Path", "{**rest}"),
            ("ReverseProxy:Clusters:h2:Destinations:one:Address", "http://127.0.0.1:8081"),
            ("ReverseProxy:Clusters:h2:HttpRequest:Version", "2"));

        var report = StartupReport.Describe(options, ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Equal(overHttpClient, report.Contains("HTTP/2 to destinations on several connections when one's streams are all in use, HTTP/1.1 clients' requests over raw mode's HttpClient forwarder (its own HTTP/2 client, http2.client, carries HTTP/2 clients' streams only; an upgrade request stays on HTTP/1.1)", StringComparison.Ordinal));
        Assert.DoesNotContain("raw mode sends HTTP/1.1 clients' requests over HTTP/1.1", report, StringComparison.Ordinal);
        Assert.Contains("HTTP/2 to destinations", report, StringComparison.Ordinal);
    }

    /// <summary>Version 1.1 with <c>RequestVersionOrHigher</c> may reach HTTP/2 by ALPN (YARP's meaning): raw mode leaves it to HttpClient too.</summary>
    [Fact]
    public void Describe_Http11OrHigherCluster_InRawMode_SaysHttp11ClientsGoOverHttpClient()
    {
        var options = ConfiguredOptions.Read(
            ("mode", "raw"),
            ("ReverseProxy:Routes:all:ClusterId", "up"),
            ("ReverseProxy:Routes:all:Match:Path", "{**rest}"),
            ("ReverseProxy:Clusters:up:Destinations:one:Address", "https://127.0.0.1:8081"),
            ("ReverseProxy:Clusters:up:HttpRequest:VersionPolicy", "RequestVersionOrHigher"));

        var report = StartupReport.Describe(options, ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Contains("HTTP/1.1 clients' requests over raw mode's HttpClient forwarder", report, StringComparison.Ordinal);
    }
}
