using LLRP.Configuration;
using LLRP.Configuration.Routes;

namespace LLRP.Tests.Configuration;

/// <summary>The <c>ReverseProxy</c> section read into <see cref="RoutingOptions"/>: a YARP file as a YARP user writes it, defaults, the implicit route.</summary>
public sealed class RoutingOptionsReaderTests
{
    private const string YarpFile = """
        {
          "Logging": { "LogLevel": { "Default": "Information" } },
          "ReverseProxy": {
            "Routes": {
              "api": {
                "ClusterId": "api-cluster",
                "Order": 10,
                "Match": {
                  "Path": "/api/{version}/{**rest}",
                  "Methods": [ "GET", "POST" ],
                  "Headers": [
                    { "Name": "X-Tenant", "Values": [ "blue", "green" ], "Mode": "ExactHeader", "IsCaseSensitive": true },
                    { "Name": "X-Debug", "Mode": "NotExists" }
                  ],
                  "QueryParameters": [ { "Name": "lang", "Values": [ "en" ], "Mode": "Prefix" } ]
                },
                "Metadata": { "Owner": "team-api" },
                "Transforms": [
                  { "PathPattern": "/v/{version}/{**rest}" },
                  { "RequestHeader": "X-Api", "Set": "1" },
                  { "ResponseHeader": "Cache-Control", "Set": "no-store", "When": "Always" }
                ]
              },
              "static": {
                "ClusterId": "static-cluster",
                "Match": { "Hosts": [ "static.example.com", "*.cdn.example.com:8443" ], "Path": "/assets/{*file}" },
                "Transforms": [ { "PathRemovePrefix": "/assets" }, { "RequestHeaderOriginalHost": "true" } ]
              },
              "admin": {
                "ClusterId": "api-cluster",
                "Order": -1,
                "Match": { "Hosts": [ "admin.example.com" ] },
                "Transforms": [ { "X-Forwarded": "Append", "Prefix": "Off" }, { "RequestHeadersCopy": "false" } ]
              },
              "fallback": { "ClusterId": "static-cluster", "Match": { "Path": "{**catch-all}" } }
            },
            "Clusters": {
              "api-cluster": {
                "LoadBalancingPolicy": "LeastRequests",
                "SessionAffinity": {
                  "Enabled": true,
                  "Policy": "Cookie",
                  "FailurePolicy": "Return503Error",
                  "AffinityKeyName": "Api.Affinity",
                  "Cookie": { "Path": "/api", "Domain": "example.com", "HttpOnly": false, "SecurePolicy": "Always", "SameSite": "Lax", "MaxAge": "01:00:00", "IsEssential": true }
                },
                "HealthCheck": {
                  "Active": { "Enabled": "true", "Interval": "00:00:10", "Timeout": "00:00:02", "Policy": "ConsecutiveFailures", "Path": "/health", "Query": "?deep=1" },
                  "Passive": { "Enabled": true, "Policy": "ConsecutiveFailures", "ReactivationPeriod": "00:01:00" },
                  "AvailableDestinationsPolicy": "HealthyOrPanic"
                },
                "HttpRequest": { "ActivityTimeout": "00:00:30", "Version": "1.1", "VersionPolicy": "RequestVersionExact" },
                "HttpClient": { "DangerousAcceptAnyServerCertificate": true, "MaxConnectionsPerServer": 100 },
                "Metadata": {
                  "ConsecutiveFailuresHealthPolicy.Threshold": "3",
                  "Llrp.ActiveHealthyThreshold": "2",
                  "Llrp.PassiveConsecutiveFailures": "4",
                  "Llrp.Retries": "2",
                  "Llrp.MaxQueuedPerDestination": "50",
                  "Llrp.QueueTimeoutMs": "1500",
                  "TransportFailureRateHealthPolicy.RateLimit": "0.5"
                },
                "Destinations": {
                  "api-1": { "Address": "https://10.0.0.1:5001/", "Metadata": { "Llrp.Weight": "3" } },
                  "api-2": { "Address": "https://10.0.0.2:5001/base", "Host": "api.internal:5001" }
                }
              },
              "static-cluster": {
                "HealthCheck": { "Passive": { "Enabled": false } },
                "Destinations": { "files": { "Address": "http://files.internal/" } }
              }
            }
          }
        }
        """;

    [Fact]
    public void Read_YarpFile_LoadsEveryRoute()
    {
        var routing = ReverseProxyFiles.Routing(YarpFile);

        Assert.Equal(["admin", "api", "fallback", "static"], routing.Routes.Select(r => r.Id));
        var api = routing.Routes.Single(r => r.Id == "api");
        Assert.Equal(("api-cluster", 10), (api.ClusterId, api.Order));
        Assert.Equal("/api/{version}/{**rest}", api.Match.Path);
        Assert.Empty(api.Match.Hosts);
        Assert.Equal(["GET", "POST"], api.Match.Methods);
        Assert.Equal(["X-Tenant ExactHeader [blue,green] True", "X-Debug NotExists [] False"], api.Match.Headers.Select(h => $"{h.Name} {h.Mode} [{string.Join(",", h.Values)}] {h.IsCaseSensitive}"));
        Assert.Equal(["lang Prefix [en] False"], api.Match.QueryParameters.Select(q => $"{q.Name} {q.Mode} [{string.Join(",", q.Values)}] {q.IsCaseSensitive}"));
        Assert.Equal([new PathTransformOptions(PathTransformKind.Pattern, "/v/{version}/{**rest}")], api.Transforms.Path);
        Assert.Equal([new HeaderTransformOptions(TransformAction.Set, "X-Api", "1", ResponseCondition.Always)], api.Transforms.RequestHeaders);
        Assert.Equal([new HeaderTransformOptions(TransformAction.Set, "Cache-Control", "no-store", ResponseCondition.Always)], api.Transforms.ResponseHeaders);
        Assert.Equal((null, true, null), (api.Transforms.OriginalHost, api.Transforms.CopyRequestHeaders, api.Transforms.Forwarded));

        var assets = routing.Routes.Single(r => r.Id == "static");
        Assert.Equal(("static-cluster", 0, "/assets/{*file}"), (assets.ClusterId, assets.Order, assets.Match.Path));
        Assert.Equal(["static.example.com", "*.cdn.example.com:8443"], assets.Match.Hosts);
        Assert.Equal([new PathTransformOptions(PathTransformKind.RemovePrefix, "/assets")], assets.Transforms.Path);
        Assert.True(assets.Transforms.OriginalHost);

        var admin = routing.Routes.Single(r => r.Id == "admin");
        Assert.Equal((-1, null), (admin.Order, admin.Match.Path));
        Assert.Equal(["admin.example.com"], admin.Match.Hosts);
        Assert.Equal(new ForwardedTransformOptions(ForwardedAction.Append, ForwardedAction.Append, ForwardedAction.Append, ForwardedAction.Off, "X-Forwarded-"), admin.Transforms.Forwarded);
        Assert.False(admin.Transforms.CopyRequestHeaders);

        Assert.Equal("/{**catch-all}", routing.Routes.Single(r => r.Id == "fallback").Match.Path);
    }

    [Fact]
    public void Read_YarpFile_LoadsEveryCluster()
    {
        var routing = ReverseProxyFiles.Routing(YarpFile);

        Assert.Equal(["api-cluster", "static-cluster"], routing.Clusters.Select(c => c.Id));
        var api = routing.Clusters[0];
        Assert.Equal(["api-1 https://10.0.0.1:5001/ 3 -", "api-2 https://10.0.0.2:5001/base 1 api.internal:5001"], api.Destinations.Select(d => $"{d.Name} {d.Endpoint} {d.Weight} {d.Host ?? "-"}"));
        var expected = new ClusterOptions(
            "api-cluster",
            api.Destinations,
            BalancingPolicy.LeastRequests,
            new PassiveHealthOptions(4, TimeSpan.FromMinutes(1)),
            new ActiveHealthOptions("/health?deep=1", TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(2), 2, 3),
            AvailableDestinationsPolicy.HealthyOrPanic,
            new SessionAffinityOptions(AffinityPolicy.Cookie, AffinityFailurePolicy.Return503Error, "Api.Affinity", new AffinityCookieOptions("/api", "example.com", false, true, "Lax", TimeSpan.FromHours(1))),
            MaxRetries: 2,
            MaxRequestsPerDestination: 100,
            MaxQueuedPerDestination: 50,
            QueueTimeout: TimeSpan.FromMilliseconds(1500),
            ResponseHeadersTimeout: TimeSpan.FromSeconds(30),
            DangerousAcceptAnyServerCertificate: true)
        {
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        Assert.Equal(expected, api);

        var files = routing.Clusters[1];
        Assert.Equal(0, files.PassiveHealth.ConsecutiveFailures);
        Assert.Null(files.ActiveHealth);
        Assert.Null(files.Affinity);
        Assert.Equal(["files http://files.internal/ 1"], files.Destinations.Select(d => $"{d.Name} {d.Endpoint} {d.Weight}"));
    }

    [Fact]
    public void Read_YarpFile_DestinationsAreTheFirstClustersForExistingReaders()
    {
        var options = ReverseProxyFiles.Read(YarpFile);

        Assert.False(options.EmbeddedDownstream);
        Assert.Equal(["api-1", "api-2"], options.Destinations.Select(d => d.Name));
    }

    [Fact]
    public void Read_ClusterLeavesOut_TakesTopLevelKeys()
    {
        var cluster = Assert.Single(ReverseProxyFiles.Routing(
            ReverseProxyFiles.MinimalWith("ReverseProxy:Clusters:backend:HealthCheck", """{ "Active": { "Enabled": true } }"""),
            ("balancing", "powerOfTwoChoices"),
            ("health.passive.consecutiveFailures", "7"),
            ("health.passive.reactivationMs", "3000"),
            ("health.active.path", "/ready"),
            ("health.active.intervalMs", "4000"),
            ("health.active.timeoutMs", "500"),
            ("health.active.healthyThreshold", "3"),
            ("health.active.unhealthyThreshold", "4"),
            ("retries.max", "3"),
            ("limits.maxConnectionsPerDestination", "20"),
            ("limits.maxQueuedPerDestination", "30"),
            ("limits.queueTimeoutMs", "700"),
            ("timeouts.responseHeadersMs", "9000"),
            ("tls.downstreamInsecure", "true")).Clusters);

        Assert.Equal(BalancingPolicy.PowerOfTwoChoices, cluster.Balancing);
        Assert.Equal(new PassiveHealthOptions(7, TimeSpan.FromSeconds(3)), cluster.PassiveHealth);
        Assert.Equal(new ActiveHealthOptions("/ready", TimeSpan.FromSeconds(4), TimeSpan.FromMilliseconds(500), 3, 4), cluster.ActiveHealth);
        Assert.Equal(AvailableDestinationsPolicy.HealthyAndUnknown, cluster.AvailableDestinations);
        Assert.Equal((3, 20, 30, TimeSpan.FromMilliseconds(700), TimeSpan.FromSeconds(9), true), (cluster.MaxRetries, cluster.MaxRequestsPerDestination, cluster.MaxQueuedPerDestination, cluster.QueueTimeout, cluster.ResponseHeadersTimeout, cluster.DangerousAcceptAnyServerCertificate));
    }

    [Fact]
    public void Read_MinimalFile_TakesLlrpDefaults()
    {
        var routing = ReverseProxyFiles.Routing(ReverseProxyFiles.Minimal);

        var route = Assert.Single(routing.Routes);
        Assert.Equal(RouteTransformOptions.None with { Path = route.Transforms.Path, Query = route.Transforms.Query, RequestHeaders = route.Transforms.RequestHeaders, ResponseHeaders = route.Transforms.ResponseHeaders }, route.Transforms);
        Assert.Empty(route.Transforms.Path);
        var cluster = Assert.Single(routing.Clusters);
        Assert.Equal(BalancingPolicy.RoundRobinPerConnection, cluster.Balancing);
        Assert.Equal(new PassiveHealthOptions(5, TimeSpan.FromSeconds(10)), cluster.PassiveHealth);
        Assert.Null(cluster.ActiveHealth);
        Assert.Null(cluster.Affinity);
        Assert.Equal((1, 0, 0, TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(100), false), (cluster.MaxRetries, cluster.MaxRequestsPerDestination, cluster.MaxQueuedPerDestination, cluster.QueueTimeout, cluster.ResponseHeadersTimeout, cluster.DangerousAcceptAnyServerCertificate));
    }

    [Fact]
    public void Read_AffinityWithoutDetails_TakesYarpDefaults()
    {
        var cluster = Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.MinimalWith("ReverseProxy:Clusters:backend:SessionAffinity", """{ "Enabled": true }""")).Clusters);

        Assert.Equal(new SessionAffinityOptions(AffinityPolicy.Cookie, AffinityFailurePolicy.Redistribute, ".Yarp.Affinity", AffinityCookieOptions.Default), cluster.Affinity);
    }

    [Theory]
    [InlineData("""{ "SecurePolicy": "SameAsRequest", "Expiration": "02:00:00" }""", false, 2)]
    [InlineData("""{ "SecurePolicy": "none", "SameSite": "Unspecified" }""", false, null)]
    [InlineData("""{ "SecurePolicy": "Always", "Expiration": "02:00:00", "MaxAge": "01:00:00" }""", true, 1)]
    public void Read_AffinityCookie_MapsSecurePolicyAndLifetime(string cookie, bool secure, int? hours)
    {
        var json = ReverseProxyFiles.MinimalWith("ReverseProxy:Clusters:backend:SessionAffinity", $$"""{ "Enabled": true, "Policy": "CustomHeader", "Cookie": {{cookie}} }""");

        var affinity = Assert.Single(ReverseProxyFiles.Routing(json).Clusters).Affinity!;

        Assert.Equal(AffinityPolicy.CustomHeader, affinity.Policy);
        Assert.Equal((secure, null, hours is { } h ? TimeSpan.FromHours(h) : null), (affinity.Cookie.Secure, affinity.Cookie.SameSite, affinity.Cookie.MaxAge));
    }

    [Fact]
    public void Read_AffinityDisabled_IsNull()
    {
        var json = ReverseProxyFiles.MinimalWith("ReverseProxy:Clusters:backend:SessionAffinity", """{ "Enabled": false, "Policy": "CustomHeader" }""");

        Assert.Null(Assert.Single(ReverseProxyFiles.Routing(json).Clusters).Affinity);
    }

    [Fact]
    public void Read_Downstream_MakesTheImplicitRoute()
    {
        var options = ConfiguredOptions.Read(("downstream", "http://a.test|w=2;http://b.test"), ("balancing", "weightedRoundRobin"), ("retries.max", "0"), ("health.active.path", "/up"));

        var route = Assert.Single(options.Routing.Routes);
        Assert.Equal(new RouteOptions("default", "default", 0, RouteMatchOptions.Any, RouteTransformOptions.None), route);
        var cluster = Assert.Single(options.Routing.Clusters);
        Assert.Equal("default", cluster.Id);
        Assert.Same(options.Destinations, cluster.Destinations);
        Assert.Equal((BalancingPolicy.WeightedRoundRobin, 0, "/up"), (cluster.Balancing, cluster.MaxRetries, cluster.ActiveHealth?.Path));
    }

    [Fact]
    public void Read_NoDestinations_RoutesToTheBundledOrigin()
    {
        var options = ConfiguredOptions.Read();

        Assert.Equal(new Uri(ProxyOptionsReader.EmbeddedDownstreamUrl), Assert.Single(Assert.Single(options.Routing.Clusters).Destinations).Endpoint.Uri);
    }

    [Theory]
    [InlineData("downstream", "http://a.test")]
    [InlineData("destinations:0:address", "http://a.test")]
    public void Read_ReverseProxyAndDestinations_Refused(string key, string value)
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.Minimal, "ReverseProxy", (key, value));

        Assert.Contains("not both", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ReadRouting_OnReload_ReadsTheSectionAgain()
    {
        var started = ReverseProxyFiles.Read(ReverseProxyFiles.Minimal);
        var changed = ReverseProxyFiles.MinimalWith("ReverseProxy:Routes:api:Match:Path", "\"/v2/{**rest}\"");

        var routing = ProxyOptionsReader.ReadRouting(ReverseProxyFiles.Configuration(changed), started);

        Assert.Equal("/v2/{**rest}", Assert.Single(routing.Routes).Match.Path);
    }

    [Fact]
    public void ReadRouting_OnReloadWithABadValue_Throws()
    {
        var started = ReverseProxyFiles.Read(ReverseProxyFiles.Minimal);
        var changed = ReverseProxyFiles.MinimalWith("ReverseProxy:Routes:api:ClusterId", "\"nowhere\"");

        var e = Assert.Throws<ProxyConfigurationException>(() => ProxyOptionsReader.ReadRouting(ReverseProxyFiles.Configuration(changed), started));

        Assert.Equal("ReverseProxy:Routes:api:ClusterId", e.Key);
    }

    [Fact]
    public void ReadRouting_OnReloadWithoutAnyDestination_Throws()
    {
        var started = ReverseProxyFiles.Read(ReverseProxyFiles.Minimal);

        var e = Assert.Throws<ProxyConfigurationException>(() => ProxyOptionsReader.ReadRouting(ReverseProxyFiles.Configuration("{}"), started));

        Assert.Equal("downstream", e.Key);
    }

    [Fact]
    public void Read_KeysInAnyCase_AreYarpKeys()
    {
        var json = """
            { "reverseproxy": { "routes": { "r": { "clusterid": "C", "match": { "path": "/x" }, "transforms": [ { "pathprefix": "/y" } ] } },
                                "clusters": { "c": { "loadbalancingpolicy": "random", "destinations": { "d": { "address": "http://d.test" } } } } } }
            """;

        var routing = ReverseProxyFiles.Routing(json);

        Assert.Equal(("c", "/y"), (Assert.Single(routing.Routes).ClusterId, routing.Routes[0].Transforms.Path[0].Value));
        Assert.Equal(BalancingPolicy.Random, routing.Clusters[0].Balancing);
    }
}
