namespace LLRP.FunctionalTests.Routing;

/// <summary>appsettings.json files in YARP's <c>ReverseProxy</c> shape, as a YARP user writes them.</summary>
internal static class RoutingFiles
{
    /// <summary>
    /// <c>/api/{**catch-all}</c> with its prefix removed and <c>X-Route: api</c> set goes to the api cluster; any path on
    /// <c>other.example</c> to the other cluster; nothing else matches.
    /// </summary>
    public static string ApiAndOtherHost(string apiUrl, string otherUrl) => $$"""
        {
          "Logging": { "LogLevel": { "Default": "Warning" } },
          "ReverseProxy": {
            "Routes": {
              "api": {
                "ClusterId": "api",
                "Match": { "Path": "/api/{**catch-all}" },
                "Transforms": [
                  { "PathRemovePrefix": "/api" },
                  { "RequestHeader": "X-Route", "Set": "api" }
                ]
              },
              "other": {
                "ClusterId": "other",
                "Match": { "Hosts": [ "other.example" ] }
              }
            },
            "Clusters": {
              "api": {
                "LoadBalancingPolicy": "RoundRobin",
                "Destinations": { "a1": { "Address": "{{apiUrl}}/" } }
              },
              "other": {
                "Destinations": { "o1": { "Address": "{{otherUrl}}/" } }
              }
            }
          }
        }
        """;

    /// <summary>Routes that differ only by order or specificity, each naming itself in <c>X-Route</c>.</summary>
    public static string Precedence(string url) => $$"""
        {
          "ReverseProxy": {
            "Routes": {
              "catch-all": { "ClusterId": "c", "Match": { "Path": "/{**rest}" }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "catch-all" } ] },
              "param": { "ClusterId": "c", "Match": { "Path": "/items/{id}" }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "param" } ] },
              "literal": { "ClusterId": "c", "Match": { "Path": "/items/special" }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "literal" } ] },
              "post": { "ClusterId": "c", "Match": { "Path": "/items/{id}", "Methods": [ "POST" ] }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "post" } ] },
              "header": { "ClusterId": "c", "Match": { "Path": "/{**rest}", "Headers": [ { "Name": "X-Version", "Values": [ "beta" ], "Mode": "ExactHeader" } ] }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "header" } ] },
              "query": { "ClusterId": "c", "Match": { "Path": "/{**rest}", "QueryParameters": [ { "Name": "debug", "Values": [ "on" ], "Mode": "Exact" } ] }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "query" } ] },
              "first": { "ClusterId": "c", "Order": -1, "Match": { "Path": "/first/{**rest}" }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "first" } ] },
              "shadowed": { "ClusterId": "c", "Order": 0, "Match": { "Path": "/first/x" }, "Transforms": [ { "RequestHeader": "X-Route", "Set": "shadowed" } ] }
            },
            "Clusters": {
              "c": { "Destinations": { "d": { "Address": "{{url}}/" } } }
            }
          }
        }
        """;

    /// <summary>Every kind of transform on one route.</summary>
    public static string Transforms(string url) => $$"""
        {
          "ReverseProxy": {
            "Routes": {
              "shop": {
                "ClusterId": "shop",
                "Match": { "Path": "/v1/{**rest}", "Hosts": [ "shop.example" ] },
                "Transforms": [
                  { "PathPattern": "/{**rest}" },
                  { "PathPrefix": "/api" },
                  { "QueryRemoveParameter": "drop" },
                  { "QueryValueParameter": "set", "Set": "new" },
                  { "QueryValueParameter": "add", "Append": "a b" },
                  { "RequestHeaderRemove": "X-Remove-Me" },
                  { "RequestHeader": "X-Append", "Append": "b" },
                  { "RequestHeaderOriginalHost": "true" },
                  { "X-Forwarded": "Set", "Proto": "Remove", "Host": "Off", "Prefix": "Off" },
                  { "ResponseHeader": "X-Proxy", "Set": "llrp", "When": "Always" },
                  { "ResponseHeaderRemove": "X-Drop" }
                ]
              }
            },
            "Clusters": {
              "shop": { "Destinations": { "d": { "Address": "{{url}}/" } } }
            }
          }
        }
        """;

    /// <summary>Paths under <c>/dead</c> to one cluster, under <c>/live</c> to another.</summary>
    public static string TwoClusters(string deadUrl, string liveUrl) => $$"""
        {
          "ReverseProxy": {
            "Routes": {
              "dead": { "ClusterId": "dead", "Match": { "Path": "/dead/{**rest}" } },
              "live": { "ClusterId": "live", "Match": { "Path": "/live/{**rest}" } }
            },
            "Clusters": {
              "dead": {
                "HealthCheck": { "Passive": { "Enabled": true, "ReactivationPeriod": "00:00:30" } },
                "Destinations": { "d1": { "Address": "{{deadUrl}}/" } }
              },
              "live": { "Destinations": { "l1": { "Address": "{{liveUrl}}/" } } }
            }
          }
        }
        """;

    /// <summary>One route to a cluster of two destinations with cookie affinity, round robin otherwise.</summary>
    public static string Affinity(string firstUrl, string secondUrl) => $$"""
        {
          "ReverseProxy": {
            "Routes": { "all": { "ClusterId": "sticky", "Match": { "Path": "/{**rest}" } } },
            "Clusters": {
              "sticky": {
                "LoadBalancingPolicy": "RoundRobin",
                "SessionAffinity": { "Enabled": true, "Policy": "Cookie", "AffinityKeyName": ".Llrp.Test", "FailurePolicy": "Redistribute" },
                "HealthCheck": { "Passive": { "Enabled": true, "ReactivationPeriod": "00:01:00" } },
                "Metadata": { "Llrp.PassiveConsecutiveFailures": "1" },
                "Destinations": {
                  "one": { "Address": "{{firstUrl}}/" },
                  "two": { "Address": "{{secondUrl}}/" }
                }
              }
            }
          }
        }
        """;
}
