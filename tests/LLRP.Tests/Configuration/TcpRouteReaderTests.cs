using System.Net;
using LLRP.Configuration;
using LLRP.Configuration.Routes;

namespace LLRP.Tests.Configuration;

/// <summary><c>ReverseProxy:TcpRoutes</c> and clusters of <c>tcp://</c> destinations: read, defaulted, and every bad value refused naming its key.</summary>
public sealed class TcpRouteReaderTests
{
    private const string Route = "ReverseProxy:TcpRoutes:t";

    private const string Minimal = """
        {
          "ReverseProxy": {
            "TcpRoutes": { "t": { "Listen": "127.0.0.1:9900", "ClusterId": "tcp" } },
            "Clusters": { "tcp": { "Destinations": { "d": { "Address": "tcp://127.0.0.1:5432" } } } }
          }
        }
        """;

    private const string WithHttpRoute = """
        {
          "ReverseProxy": {
            "Routes": { "r": { "ClusterId": "web", "Match": { "Path": "/{**rest}" } } },
            "TcpRoutes": { "t": { "Listen": "127.0.0.1:9900", "ClusterId": "tcp" } },
            "Clusters": {
              "web": { "Destinations": { "w": { "Address": "http://127.0.0.1:8081/" } } },
              "tcp": { "Destinations": { "d": { "Address": "tcp://127.0.0.1:5432" } } }
            }
          }
        }
        """;

    private static ProxyConfigurationException Refused(string json, string key, string reason)
    {
        var e = ReverseProxyFiles.Refused(json, key);
        Assert.Contains(reason, e.Message, StringComparison.Ordinal);
        return e;
    }

    [Fact]
    public void Read_OnlyTcpRoutes_NoRoutesNeeded_DefaultsFromTopLevelKeys()
    {
        var routing = ReverseProxyFiles.Routing(Minimal, ("timeouts.connectMs", "1500"));

        Assert.Empty(routing.Routes);
        var route = Assert.Single(routing.TcpRoutes);
        Assert.Equal(new TcpRouteOptions("t", new IPEndPoint(IPAddress.Loopback, 9900), "tcp", TimeSpan.FromMinutes(10), TimeSpan.FromMilliseconds(1500), 0), route);
        var cluster = Assert.Single(routing.Clusters);
        Assert.True(cluster.IsTcp);
        Assert.Equal(ProxyProtocolVersion.None, cluster.ProxyProtocol);
        var endpoint = Assert.Single(cluster.Destinations).Endpoint;
        Assert.Equal(new IPEndPoint(IPAddress.Loopback, 5432), endpoint.EndPoint);
    }

    [Fact]
    public void Read_EveryKey()
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.With(ReverseProxyFiles.With(ReverseProxyFiles.With(Minimal,
            Route + ":IdleTimeout", "\"00:00:30\""),
            Route + ":ConnectTimeout", "\"00:00:02\""),
            Route + ":MaxConnections", "100"),
            "ReverseProxy:Clusters:tcp:Metadata:Llrp.ProxyProtocol", "\"v2\"");

        var routing = ReverseProxyFiles.Routing(json);

        var route = Assert.Single(routing.TcpRoutes);
        Assert.Equal((TimeSpan.FromSeconds(30), TimeSpan.FromSeconds(2), 100), (route.IdleTimeout, route.ConnectTimeout, route.MaxConnections));
        Assert.Equal(ProxyProtocolVersion.V2, Assert.Single(routing.Clusters).ProxyProtocol);
    }

    [Theory]
    [InlineData("[::1]:9900", "::1", 9900)]
    [InlineData("*:9900", "0.0.0.0", 9900)]
    [InlineData("127.0.0.1:0", "127.0.0.1", 0)]
    public void Read_ListenForms(string listen, string address, int port)
    {
        var route = Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.With(Minimal, Route + ":Listen", $"\"{listen}\"")).TcpRoutes);
        Assert.Equal(new IPEndPoint(IPAddress.Parse(address), port), route.Listen);
    }

    [Fact]
    public void Read_RoutesAndTcpRoutes_EachToItsKindOfCluster()
    {
        var routing = ReverseProxyFiles.Routing(WithHttpRoute);

        Assert.Equal("web", Assert.Single(routing.Routes).ClusterId);
        Assert.Equal("tcp", Assert.Single(routing.TcpRoutes).ClusterId);
    }

    [Theory]
    [InlineData("127.0.0.1")]
    [InlineData("localhost:9900")]
    [InlineData("::1:9900")]
    [InlineData("[127.0.0.1]:9900")]
    [InlineData("127.0.0.1:65536")]
    [InlineData("127.0.0.1:-1")]
    [InlineData("tcp://127.0.0.1:9900")]
    public void Read_BadListen_Refused(string listen)
        => Refused(ReverseProxyFiles.With(Minimal, Route + ":Listen", $"\"{listen}\""), Route + ":Listen", "an address literal and a port");

    [Fact]
    public void Read_NoListen_Refused() => Refused(ReverseProxyFiles.With(Minimal, Route + ":Listen", null), Route + ":Listen", "an address literal and a port");

    [Fact]
    public void Read_UnknownKey_RefusedWithTheNearest() => Refused(ReverseProxyFiles.With(Minimal, Route + ":IdleTimout", "\"00:00:01\""), Route + ":IdleTimout", "did you mean IdleTimeout?");

    [Theory]
    [InlineData(":IdleTimeout", "\"5s\"", "TimeSpan")]
    [InlineData(":ConnectTimeout", "\"00:00:00\"", "TimeSpan")]
    [InlineData(":MaxConnections", "\"-1\"", "an integer >= 0")]
    [InlineData(":ClusterId", "\"nowhere\"", "the id of a cluster")]
    public void Read_BadValue_Refused(string key, string value, string reason) => Refused(ReverseProxyFiles.With(Minimal, Route + key, value), Route + key, reason);

    [Fact]
    public void Read_TcpRouteToHttpCluster_Refused()
        => Refused(ReverseProxyFiles.With(WithHttpRoute, Route + ":ClusterId", "\"web\""), Route + ":ClusterId", "whose destinations are tcp://host:port");

    [Fact]
    public void Read_HttpRouteToTcpCluster_Refused()
        => Refused(ReverseProxyFiles.With(WithHttpRoute, "ReverseProxy:Routes:r:ClusterId", "\"tcp\""), "ReverseProxy:Routes:r:ClusterId", "which only TcpRoutes take");

    [Fact]
    public void Read_MixedDestinations_Refused()
        => Refused(
            ReverseProxyFiles.With(Minimal, "ReverseProxy:Clusters:tcp:Destinations:e:Address", "\"http://127.0.0.1:8081/\""),
            "ReverseProxy:Clusters:tcp:Destinations:e:Address",
            "all tcp://");

    [Theory]
    [InlineData("tcp://127.0.0.1")]
    [InlineData("tcp://127.0.0.1:5432/db")]
    [InlineData("tcp://127.0.0.1:5432/")]
    [InlineData("tcp://user@127.0.0.1:5432")]
    [InlineData("udp://127.0.0.1:5432")]
    public void Read_BadTcpAddress_Refused(string address)
        => Refused(ReverseProxyFiles.With(Minimal, "ReverseProxy:Clusters:tcp:Destinations:d:Address", $"\"{address}\""), "ReverseProxy:Clusters:tcp:Destinations:d:Address", "tcp://host:port");

    [Fact]
    public void Read_HostOnTcpDestination_Refused()
        => Refused(ReverseProxyFiles.With(Minimal, "ReverseProxy:Clusters:tcp:Destinations:d:Host", "\"db.example\""), "ReverseProxy:Clusters:tcp:Destinations:d:Host", "no Host for a tcp:// destination");

    [Fact]
    public void Read_AffinityOnTcpCluster_Refused()
        => Refused(ReverseProxyFiles.With(Minimal, "ReverseProxy:Clusters:tcp:SessionAffinity:Enabled", "true"), "ReverseProxy:Clusters:tcp:SessionAffinity", "no SessionAffinity");

    [Fact]
    public void Read_BadProxyProtocol_Refused()
        => Refused(ReverseProxyFiles.With(Minimal, "ReverseProxy:Clusters:tcp:Metadata:Llrp.ProxyProtocol", "\"v3\""), "ReverseProxy:Clusters:tcp:Metadata:Llrp.ProxyProtocol", "v1, v2");

    [Fact]
    public void Read_TwoRoutesOnOneAddress_Refused()
        => Refused(
            ReverseProxyFiles.With(ReverseProxyFiles.With(Minimal, "ReverseProxy:TcpRoutes:u:Listen", "\"127.0.0.1:9900\""), "ReverseProxy:TcpRoutes:u:ClusterId", "\"tcp\""),
            "ReverseProxy:TcpRoutes:u:Listen",
            "no other TCP route listens on");

    /// <summary>An http(s):// cluster sends the header too, in raw mode (either strategy: its connections are each one client's).</summary>
    [Theory]
    [InlineData("perClient")]
    [InlineData("pooled")]
    public void Read_ProxyProtocolOnHttpCluster_InRawMode(string strategy)
    {
        var routing = ReverseProxyFiles.Routing(
            ReverseProxyFiles.With(WithHttpRoute, "ReverseProxy:Clusters:web:Metadata:Llrp.ProxyProtocol", "\"v1\""),
            ("mode", "raw"),
            ("upstreamConnections", strategy));

        Assert.Equal(ProxyProtocolVersion.V1, Assert.Single(routing.Clusters, cluster => cluster.Id == "web").ProxyProtocol);
    }

    /// <summary>The modes over HttpClient share each handler's connections among clients: a header carrying one client's address has no place there.</summary>
    [Theory]
    [InlineData("httpclient")]
    [InlineData("httpclient-httpcontext")]
    [InlineData("yarp")]
    public void Read_ProxyProtocolOnHttpCluster_RefusedOverHttpClient(string mode)
    {
        var e = ReverseProxyFiles.Refused(
            ReverseProxyFiles.With(WithHttpRoute, "ReverseProxy:Clusters:web:Metadata:Llrp.ProxyProtocol", "\"v2\""),
            "ReverseProxy:Clusters:web:Metadata:Llrp.ProxyProtocol",
            ("mode", mode));

        Assert.Contains("mode=raw sends it", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_ProxyProtocolOnTcpCluster_AcceptedOverHttpClient()
        => Assert.Equal(
            ProxyProtocolVersion.V2,
            Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.With(Minimal, "ReverseProxy:Clusters:tcp:Metadata:Llrp.ProxyProtocol", "\"v2\""), ("mode", "httpclient")).Clusters).ProxyProtocol);

    [Fact]
    public void Read_AcceptProxyProtocol_TrustedNetworksAndTimeout()
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.With(ReverseProxyFiles.With(Minimal,
            Route + ":AcceptProxyProtocol", "true"),
            Route + ":TrustedNetworks", "[ \"10.0.0.0/8\", \"127.0.0.1\", \"fd00::/8\" ]"),
            Route + ":ProxyProtocolTimeout", "\"00:00:02\"");

        var route = Assert.Single(ReverseProxyFiles.Routing(json).TcpRoutes);

        Assert.True(route.AcceptProxyProtocol);
        Assert.Equal([IPNetwork.Parse("10.0.0.0/8"), IPNetwork.Parse("127.0.0.1/32"), IPNetwork.Parse("fd00::/8")], route.TrustedNetworks);
        Assert.Equal(TimeSpan.FromSeconds(2), route.ProxyProtocolTimeout);
    }

    [Fact]
    public void Read_AcceptProxyProtocolWithoutTrustedNetworks_Refused()
        => Refused(ReverseProxyFiles.With(Minimal, Route + ":AcceptProxyProtocol", "true"), Route + ":TrustedNetworks", "at least one with AcceptProxyProtocol true");

    [Fact]
    public void Read_TrustedNetworksWithoutAcceptProxyProtocol_Refused()
        => Refused(ReverseProxyFiles.With(Minimal, Route + ":TrustedNetworks", "[ \"10.0.0.0/8\" ]"), Route + ":TrustedNetworks", "no TrustedNetworks without AcceptProxyProtocol true");

    [Theory]
    [InlineData("10.0.0.1/8")]
    [InlineData("10.0.0.0/33")]
    [InlineData("everywhere")]
    public void Read_BadTrustedNetwork_Refused(string network)
        => Refused(
            ReverseProxyFiles.With(ReverseProxyFiles.With(Minimal, Route + ":AcceptProxyProtocol", "true"), Route + ":TrustedNetworks", $"[ \"10.0.0.0/8\", \"{network}\" ]"),
            Route + ":TrustedNetworks:1",
            "CIDR");
}
