using System.Text;
using LLRP.Configuration;

namespace LLRP.Tests.Configuration;

/// <summary>Reading <see cref="ProxyOptions"/> from configuration: defaults, every key, the prototype's flags and the errors.</summary>
public sealed class ProxyOptionsReaderTests
{
    [Fact]
    public void Read_Empty_Defaults()
    {
        var options = ConfiguredOptions.Read();

        Assert.True(options.EmbeddedDownstream);
        var downstream = Assert.Single(options.Destinations).Endpoint;
        Assert.Equal(new Uri(ProxyOptionsReader.EmbeddedDownstreamUrl), downstream.Uri);
        Assert.Equal(ProxyMode.Raw, options.Mode);
        Assert.Equal(UpstreamConnectionStrategy.Pooled, options.ConnectionStrategy);
        Assert.Equal(1024, options.MaxIdleConnectionsPerDownstream);
        Assert.Equal(1, options.PipelineDepth);
        Assert.False(options.PreserveHost);
        Assert.True(options.ForwardedHeaders);
        Assert.True(options.AddVia);
        Assert.Equal(TimeSpan.FromSeconds(10), options.ConnectTimeout);
        Assert.Equal(TimeSpan.FromSeconds(100), options.ResponseHeadersTimeout);
        Assert.Equal(TimeSpan.FromMinutes(5), options.TunnelIdleTimeout);
        Assert.Equal(["websocket"], options.UpgradeProtocols);
        Assert.Equal(8 * 1024, options.MaxRequestLineSize);
        Assert.Equal(32 * 1024, options.MaxRequestHeadersTotalSize);
        Assert.Equal(100, options.MaxRequestHeaderCount);
        Assert.Equal(0, options.MaxRequestBodySize);
        Assert.Equal(64 * 1024, options.MaxResponseHeadersTotalSize);
        Assert.Equal(4 * 1024, options.MaxChunkLineSize);
        Assert.False(options.ShareClients);
        Assert.False(options.ShareClientsRoundRobin);
        Assert.Equal(1, options.ShareClientsCount);
        Assert.True(options.ReuseHttpRequestMessage);
        Assert.Null(options.ThreadCount);
        Assert.True(options.InlineScheduling);
        Assert.True(options.InlineCompletions);
        Assert.True(options.TasksPooling);
        Assert.Equal(TimeSpan.FromSeconds(30), options.ShutdownTimeout);
    }

    [Fact]
    public void Read_EveryKey_Parsed()
    {
        var options = ConfiguredOptions.Read(
            ("downstream", "http://backend:9000/api"),
            ("mode", "yarp"),
            ("upstreamConnections", "Pooled"),
            ("pool.maxIdlePerDownstream", "7"),
            ("pool.pipelineDepth", "64"),
            ("preserveHost", "true"),
            ("forwardedHeaders", "false"),
            ("via", "0"),
            ("timeouts.connectMs", "2500"),
            ("timeouts.responseHeadersMs", "60000"),
            ("timeouts.tunnelIdleMs", "1000"),
            ("upgrade.protocols", "websocket, Example"),
            ("limits.maxRequestLineSize", "4096"),
            ("limits.maxRequestHeadersTotalSize", "16384"),
            ("limits.maxRequestHeaderCount", "50"),
            ("limits.maxRequestBodySize", "10000000000"),
            ("limits.maxResponseHeadersTotalSize", "8192"),
            ("limits.maxChunkLineSize", "128"),
            ("shareClients", "1"),
            ("shareClients.roundRobin", "true"),
            ("shareClients.count", "4"),
            ("LLRP_HTTPCLIENT_REUSEREQUEST", "0"),
            ("threadCount", "3"),
            ("transport.inlineScheduling", "false"),
            ("transport.inlineCompletions", "0"),
            ("tasks.pooling", "false"),
            ("shutdownTimeoutMs", "1500"));

        Assert.False(options.EmbeddedDownstream);
        Assert.Equal("backend:9000", Encoding.ASCII.GetString(Assert.Single(options.Destinations).Endpoint.Authority));
        Assert.Equal(ProxyMode.Yarp, options.Mode);
        Assert.Equal(UpstreamConnectionStrategy.Pooled, options.ConnectionStrategy);
        Assert.Equal(7, options.MaxIdleConnectionsPerDownstream);
        Assert.Equal(64, options.PipelineDepth);
        Assert.True(options.PreserveHost);
        Assert.False(options.ForwardedHeaders);
        Assert.False(options.AddVia);
        Assert.Equal(TimeSpan.FromMilliseconds(2500), options.ConnectTimeout);
        Assert.Equal(TimeSpan.FromMinutes(1), options.ResponseHeadersTimeout);
        Assert.Equal(TimeSpan.FromSeconds(1), options.TunnelIdleTimeout);
        Assert.Equal(["websocket", "Example"], options.UpgradeProtocols);
        Assert.Equal(4096, options.MaxRequestLineSize);
        Assert.Equal(16384, options.MaxRequestHeadersTotalSize);
        Assert.Equal(50, options.MaxRequestHeaderCount);
        Assert.Equal(10_000_000_000, options.MaxRequestBodySize);
        Assert.Equal(8192, options.MaxResponseHeadersTotalSize);
        Assert.Equal(128, options.MaxChunkLineSize);
        Assert.True(options.ShareClients);
        Assert.True(options.ShareClientsRoundRobin);
        Assert.Equal(4, options.ShareClientsCount);
        Assert.False(options.ReuseHttpRequestMessage);
        Assert.Equal(3, options.ThreadCount);
        Assert.False(options.InlineScheduling);
        Assert.False(options.InlineCompletions);
        Assert.False(options.TasksPooling);
        Assert.Equal(TimeSpan.FromMilliseconds(1500), options.ShutdownTimeout);
    }

    /// <summary>The prototype's command-line flags select the mode, as does <c>mode</c> (case-insensitive, "llhttp" meaning raw).</summary>
    [Theory]
    [InlineData("httpclient", "1", ProxyMode.HttpClient)]
    [InlineData("httpclient", "true", ProxyMode.HttpClient)]
    [InlineData("httpclient-httpcontext", "true", ProxyMode.HttpClientWithContext)]
    [InlineData("yarp", "1", ProxyMode.Yarp)]
    [InlineData("yarp", "0", ProxyMode.Raw)]
    [InlineData("mode", "raw", ProxyMode.Raw)]
    [InlineData("mode", "llhttp", ProxyMode.Raw)]
    [InlineData("mode", "HttpClient", ProxyMode.HttpClient)]
    [InlineData("mode", "httpclient-httpcontext", ProxyMode.HttpClientWithContext)]
    [InlineData("mode", " YARP ", ProxyMode.Yarp)]
    public void Read_Mode(string key, string value, ProxyMode mode)
        => Assert.Equal(mode, ConfiguredOptions.Read((key, value)).Mode);

    [Fact]
    public void Read_ModeAgreeingWithFlag_Accepted()
        => Assert.Equal(ProxyMode.Yarp, ConfiguredOptions.Read(("mode", "yarp"), ("yarp", "1"), ("httpclient", "0")).Mode);

    [Theory]
    [InlineData("mode", "yarp", "httpclient", "1")]
    [InlineData("mode", "raw", "yarp", "true")]
    [InlineData("httpclient", "1", "yarp", "1")]
    [InlineData("httpclient", "1", "httpclient-httpcontext", "1")]
    public void Read_ConflictingModes_Throws(string key1, string value1, string key2, string value2)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read((key1, value1), (key2, value2)));

        Assert.Equal("mode", e.Key);
        Assert.Contains("'mode'", e.Message, StringComparison.Ordinal);
    }

    /// <summary>A bad value fails start-up with a message naming the key and the value.</summary>
    [Fact]
    public void Read_AccessLog_OffByDefaultElseTheTargetAndFormat()
    {
        Assert.Null(ConfiguredOptions.Read().AccessLog);
        Assert.Null(ConfiguredOptions.Read(("accessLog", "off")).AccessLog);
        Assert.Equal("stderr", ConfiguredOptions.Read(("accessLog", "STDERR")).AccessLog);
        var file = Path.Combine(Path.GetTempPath(), "llrp-access.log");
        var options = ConfiguredOptions.Read(("accessLog", file), ("accessLog.format", "JSON"), ("accessLog.bufferSize", "65536"));
        Assert.Equal(file, options.AccessLog);
        Assert.Equal(AccessLogFormat.Json, options.AccessLogFormat);
        Assert.Equal(65536, options.AccessLogBufferSize);
        Assert.Equal(AccessLogFormat.Combined, ConfiguredOptions.Read().AccessLogFormat);
    }

    [Theory]
    [InlineData("mode", "fast")]
    [InlineData("httpclient", "maybe")]
    [InlineData("yarp", "2")]
    [InlineData("upstreamConnections", "shared")]
    [InlineData("pool.maxIdlePerDownstream", "-1")]
    [InlineData("pool.pipelineDepth", "0")]
    [InlineData("pool.pipelineDepth", "65")]
    [InlineData("pool.pipelineDepth", "many")]
    [InlineData("preserveHost", "enabled")]
    [InlineData("preserveHost", "yes")]
    [InlineData("via", "off")]
    [InlineData("shareClients", "on")]
    [InlineData("forwardedHeaders", "nope")]
    [InlineData("via", "x")]
    [InlineData("timeouts.connectMs", "0")]
    [InlineData("timeouts.connectMs", "abc")]
    [InlineData("timeouts.responseHeadersMs", "1.5")]
    [InlineData("timeouts.tunnelIdleMs", "0")]
    [InlineData("upgrade.protocols", "h2c")]
    [InlineData("upgrade.protocols", "websocket, H2C")]
    [InlineData("upgrade.protocols", "web socket")]
    [InlineData("upgrade.protocols", "websocket/13")]
    [InlineData("upgrade.protocols", ",")]
    [InlineData("urls", "127.0.0.1:8080")]
    [InlineData("urls", "ftp://127.0.0.1:8080")]
    [InlineData("urls", "http://127.0.0.1:notaport")]
    [InlineData("urls", "http://127.0.0.1:99999")]
    [InlineData("urls", "http://127.0.0.1:-1")]
    [InlineData("urls", "http://localhost:8080;http://[::1]:65536")]
    [InlineData("admin.urls", "http://127.0.0.1:notaport")]
    [InlineData("admin.urls", "http://127.0.0.1:99999")]
    [InlineData("origin.urls", "http://127.0.0.1:notaport")]
    [InlineData("origin.urls", "http://127.0.0.1:99999")]
    [InlineData("origin.urls", "http://127.0.0.1:0")]
    [InlineData("limits.maxRequestLineSize", "63")]
    [InlineData("limits.maxRequestHeadersTotalSize", "99999999999")]
    [InlineData("limits.maxRequestHeaderCount", "0")]
    [InlineData("limits.maxRequestBodySize", "-5")]
    [InlineData("limits.maxResponseHeadersTotalSize", "1e6")]
    [InlineData("limits.maxChunkLineSize", "31")]
    [InlineData("shareClients", "sometimes")]
    [InlineData("shareClients.count", "0")]
    [InlineData("LLRP_HTTPCLIENT_REUSEREQUEST", "?")]
    [InlineData("threadCount", "0")]
    [InlineData("shutdownTimeoutMs", "-1")]
    [InlineData("downstream", "ftp://backend/")]
    [InlineData("downstream", "backend:5000")]
    [InlineData("downstream", "http://backend/?q=1")]
    [InlineData("downstream", "http://user@backend/")]
    [InlineData("downstream", "http://backend/#f")]
    [InlineData("downstream", "http://a/;ftp://b/")]
    [InlineData("downstream", ";")]
    [InlineData("origin.urls", "127.0.0.1:8081")]
    [InlineData("origin.urls", "https://127.0.0.1:8081")]
    [InlineData("origin.urls", "http://127.0.0.1:8081/path")]
    [InlineData("origin.urls", "http://127.0.0.1:8081;http://127.0.0.1:8082")]
    [InlineData("origin.urls", "http://127.0.0.1:8081#f")]
    [InlineData("origin.urls", "http://127.0.0.1:8081/?q=1")]
    [InlineData("accessLog", "/no/such/directory/access.log")]
    [InlineData("accessLog", "/tmp")]
    [InlineData("accessLog.format", "common")]
    [InlineData("accessLog.bufferSize", "4095")]
    [InlineData("transport", "iouring")]
    [InlineData("transport", "libuv")]
    public void Read_InvalidValue_ThrowsNamingKeyAndValue(string key, string value)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read((key, value)));

        Assert.Equal(key, e.Key);
        Assert.Contains($"'{key}' = '{value}'", e.Message, StringComparison.Ordinal);
    }

    /// <summary><c>transport</c>: epoll on Linux unless told, sockets elsewhere; either when named; an unknown transport is refused naming the ones there are.</summary>
    [Fact]
    public void Read_Transport()
    {
        Assert.Equal(OperatingSystem.IsLinux() ? TransportKind.Epoll : TransportKind.Sockets, ConfiguredOptions.Read().Transport);
        Assert.Equal(TransportKind.Epoll, ConfiguredOptions.Read(("transport", "EPOLL")).Transport);
        Assert.Equal(TransportKind.Sockets, ConfiguredOptions.Read(("transport", "sockets")).Transport);
        Assert.Contains("sockets, epoll", Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("transport", "iouring"))).Message, StringComparison.Ordinal);
    }

    /// <summary><c>http2.server</c>: LLRP's own unless told, Kestrel's in any case; another name is refused naming the ones there are.</summary>
    [Fact]
    public void Read_Http2Server()
    {
        Assert.Equal(Http2ServerKind.Llrp, ConfiguredOptions.Read().Http2Server);
        Assert.Equal(Http2ServerKind.Llrp, ConfiguredOptions.Read(("http2.server", "LLRP")).Http2Server);
        Assert.Equal(Http2ServerKind.Kestrel, ConfiguredOptions.Read(("http2.server", "Kestrel")).Http2Server);
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("http2.server", "nghttpd")));
        Assert.Equal("http2.server", e.Key);
        Assert.Contains("kestrel, llrp", e.Message, StringComparison.Ordinal);
    }

    /// <summary><c>http2.client</c>: raw mode's own unless told, HttpClient with <c>httpclient</c>; another name is refused naming the ones there are.</summary>
    [Fact]
    public void Read_Http2Client()
    {
        Assert.Equal(Http2ClientKind.Llrp, ConfiguredOptions.Read().Http2Client);
        Assert.Equal(Http2ClientKind.Llrp, ConfiguredOptions.Read(("http2.client", "LLRP")).Http2Client);
        Assert.Equal(Http2ClientKind.HttpClient, ConfiguredOptions.Read(("http2.client", "httpclient")).Http2Client);
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("http2.client", "nghttp2")));
        Assert.Equal("http2.client", e.Key);
        Assert.Contains("httpclient, llrp", e.Message, StringComparison.Ordinal);
    }

    /// <summary>A request's protocols are one bit each in a 64-bit mask: the list holds at most 64 names.</summary>
    [Fact]
    public void Read_UpgradeProtocolsOver64_Throws()
    {
        var names = string.Join(',', Enumerable.Range(0, 65).Select(i => $"p{i}"));

        Assert.Equal("upgrade.protocols", Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("upgrade.protocols", names))).Key);
        Assert.Equal(64, ConfiguredOptions.Read(("upgrade.protocols", names[..names.LastIndexOf(',')])).UpgradeProtocols.Count);
    }

    /// <summary><c>upgrade.protocols=none</c> turns every tunnel off.</summary>
    [Fact]
    public void Read_UpgradeProtocolsNone_Empty()
        => Assert.Empty(ConfiguredOptions.Read(("upgrade.protocols", "None")).UpgradeProtocols);

    /// <summary><c>downstream</c> is a ';'-separated list, blanks ignored; each keeps its path as a prefix without the trailing '/'.</summary>
    [Fact]
    public void Read_DownstreamList()
    {
        var options = ConfiguredOptions.Read(("downstream", " http://a:5000/base/ ; ;http://b/;http://c:80/x/y"));

        Assert.False(options.EmbeddedDownstream);
        Assert.Equal(
            ["a:5000 /base", "b ", "c /x/y"],
            options.Destinations.Select(o => o.Endpoint).Select(d => $"{Encoding.ASCII.GetString(d.Authority)} {Encoding.ASCII.GetString(d.PathPrefix)}"));
    }

    [Theory]
    [InlineData("")]
    [InlineData("   ")]
    public void Read_BlankDownstream_Embedded(string value)
    {
        var options = ConfiguredOptions.Read(("downstream", value));

        Assert.True(options.EmbeddedDownstream);
        Assert.Equal(new Uri(ProxyOptionsReader.EmbeddedDownstreamUrl), Assert.Single(options.Destinations).Endpoint.Uri);
    }

    /// <summary><c>origin.urls</c> moves the bundled origin, and the proxy's downstream with it; a wildcard host is reached over loopback.</summary>
    [Theory]
    [InlineData("http://127.0.0.1:9091", "http://127.0.0.1:9091", "http://127.0.0.1:9091/")]
    [InlineData("http://localhost:9092/", "http://localhost:9092", "http://localhost:9092/")]
    [InlineData("http://*:9093", "http://*:9093", "http://127.0.0.1:9093/")]
    [InlineData("http://0.0.0.0:9094", "http://0.0.0.0:9094", "http://127.0.0.1:9094/")]
    [InlineData("http://[::]:9095", "http://[::]:9095", "http://[::1]:9095/")]
    public void Read_OriginUrls_MovesTheBundledOrigin(string value, string originUrl, string downstream)
    {
        var options = ConfiguredOptions.Read(("origin.urls", value));

        Assert.True(options.EmbeddedDownstream);
        Assert.Equal(originUrl, options.OriginUrl);
        Assert.Equal(downstream, Assert.Single(options.Destinations).Endpoint.Uri.ToString());
    }

    [Fact]
    public void Read_Urls_DefaultEveryInterfaceElseAsGiven()
    {
        Assert.Equal("http://*:8080", ConfiguredOptions.Read().Urls);
        Assert.Equal("http://127.0.0.1:9000", ConfiguredOptions.Read(("urls", "http://127.0.0.1:9000")).Urls);
    }

    /// <summary>Kestrel's address forms: a name, an address literal, a wildcard, port 0 to 65535.</summary>
    [Fact]
    public void Read_UrlsInEveryFormKestrelBinds_Accepted()
    {
        const string urls = "http://localhost:0;http://[::1]:65535;http://*:80;http://+:8080;http://example.test:81;http://127.0.0.1";

        Assert.Equal(urls, ConfiguredOptions.Read(("urls", urls), ("admin.urls", urls)).Urls);
    }

    /// <summary>
    /// A dotted key is also read in the form .NET's configuration gives a section path (<c>timeouts:connectMs</c>): the
    /// environment's <c>timeouts__connectMs</c>, and nested objects in appsettings.json.
    /// </summary>
    [Fact]
    public void Read_DottedKeyInSectionForm_ReadAsTheDottedKey()
    {
        var options = ConfiguredOptions.Read(("timeouts:connectMs", "2500"), ("shareClients:roundRobin", "true"), ("health:passive:consecutiveFailures", "7"));

        Assert.Equal(TimeSpan.FromMilliseconds(2500), options.ConnectTimeout);
        Assert.True(options.ShareClientsRoundRobin);
        Assert.Equal(7, options.PassiveHealthFailures);
        Assert.Equal("timeouts.connectMs", Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("timeouts:connectMs", "abc"))).Key);
    }
}
