using LLRP.Configuration.Routes.Reading;
using Microsoft.Extensions.Configuration;
using ReverseProxyKeys = LLRP.Configuration.ConfigurationKeys.ReverseProxySection;

namespace LLRP.Configuration.Routes;

/// <summary>
/// Reads the <c>ReverseProxy</c> section (YARP's schema) into <see cref="RoutingOptions"/>, or makes the implicit
/// catch-all route of <c>downstream</c>. Every key under <c>ReverseProxy</c> is checked: an unknown key, a YARP key LLRP
/// does not implement or a bad value throws <see cref="ProxyConfigurationException"/> naming its full path.
/// </summary>
public static class RoutingOptionsReader
{
    /// <summary>The id of the implicit route and of its cluster.</summary>
    public const string ImplicitId = "default";

    /// <summary>True when the configuration has a <c>ReverseProxy</c> section (a section with at least one key).</summary>
    public static bool IsConfigured(IConfiguration configuration) => configuration.GetSection(ReverseProxyKeys.Name).Exists();

    /// <summary>The routes and clusters of the <c>ReverseProxy</c> section; null when there is none.</summary>
    /// <param name="defaults">The top-level keys, whose values a cluster takes for what it leaves out.</param>
    public static RoutingOptions? Read(IConfiguration configuration, ProxyOptions defaults)
    {
        var section = configuration.GetSection(ReverseProxyKeys.Name);
        if (!section.Exists())
        {
            return null;
        }

        SectionValue.Children(section, "a section with Routes and Clusters");
        SectionKeys.Check(section, [ReverseProxyKeys.Routes, ReverseProxyKeys.Clusters, ReverseProxyKeys.TcpRoutes]);
        var clusters = Entries(section.GetSection(ReverseProxyKeys.Clusters), "cluster").Select(cluster => ClusterReader.Read(cluster, defaults)).ToList();
        var clusterIds = clusters.Select(cluster => cluster.Id).ToList();
        var tcpSection = section.GetSection(ReverseProxyKeys.TcpRoutes);
        var tcpRoutes = SectionValue.Children(tcpSection, "a section of TCP routes, each keyed by its id").Select(route => TcpRouteReader.Read(route, clusters, defaults)).ToList();
        var routesSection = section.GetSection(ReverseProxyKeys.Routes);
        var routes = tcpRoutes.Count > 0 && !routesSection.Exists()
            ? []
            : Entries(routesSection, "route").Select(route => RouteReader.Read(route, clusterIds)).ToList();
        CheckClusterKinds(routesSection, routes, clusters);
        CheckListenAddresses(tcpSection, tcpRoutes);
        return new RoutingOptions(routes, clusters) { TcpRoutes = tcpRoutes };
    }

    /// <summary>A route's cluster has http(s):// destinations: tcp:// ones are a TCP route's.</summary>
    private static void CheckClusterKinds(IConfigurationSection routesSection, List<RouteOptions> routes, List<ClusterOptions> clusters)
    {
        foreach (var route in routes)
        {
            var cluster = clusters.First(c => c.Id == route.ClusterId);
            if (cluster.IsTcp)
            {
                throw SectionValue.Error(
                    routesSection.GetSection(route.Id).GetSection("ClusterId"),
                    $"a cluster whose destinations are http(s)://; {cluster.Id}'s are tcp:// ({cluster.Destinations[0].Endpoint}), which only TcpRoutes take");
            }
        }
    }

    /// <summary>Two TCP routes cannot listen on the same address (port 0 excepted: each gets its own).</summary>
    private static void CheckListenAddresses(IConfigurationSection tcpSection, List<TcpRouteOptions> tcpRoutes)
    {
        if (tcpRoutes.Where(route => route.Listen.Port != 0).GroupBy(route => route.Listen).FirstOrDefault(group => group.Count() > 1) is { } shared)
        {
            throw SectionValue.Error(tcpSection.GetSection(shared.Last().Id).GetSection("Listen"), $"an address no other TCP route listens on ({shared.First().Id} listens on {shared.Key})");
        }
    }

    /// <summary>
    /// The implicit route of <c>downstream</c> (or the <c>destinations</c> section, or the bundled origin): every request
    /// (<see cref="RouteMatchOptions.Any"/>), no transform, to one cluster of <paramref name="destinations"/> configured by
    /// the top-level keys. Both are named <see cref="ImplicitId"/>.
    /// </summary>
    public static RoutingOptions Implicit(IReadOnlyList<DestinationOptions> destinations, ProxyOptions defaults)
    {
        var active = defaults.ActiveHealthPath is { } path
            ? new ActiveHealthOptions(path, defaults.ActiveHealthInterval, defaults.ActiveHealthTimeout, defaults.ActiveHealthyThreshold, defaults.ActiveUnhealthyThreshold)
            : null;
        var cluster = new ClusterOptions(
            ImplicitId,
            destinations,
            defaults.Balancing,
            new PassiveHealthOptions(defaults.PassiveHealthFailures, defaults.PassiveHealthReactivation),
            active,
            AvailableDestinationsPolicy.HealthyAndUnknown,
            null,
            defaults.MaxRetries,
            defaults.MaxConnectionsPerDestination,
            defaults.MaxQueuedPerDestination,
            defaults.QueueTimeout,
            defaults.ResponseHeadersTimeout,
            defaults.DownstreamInsecure);
        return new RoutingOptions([new RouteOptions(ImplicitId, ImplicitId, 0, RouteMatchOptions.Any, RouteTransformOptions.None)], [cluster]);
    }

    /// <summary>The entries of <c>Routes</c> or <c>Clusters</c>, keyed by id: at least one.</summary>
    private static List<IConfigurationSection> Entries(IConfigurationSection section, string what)
    {
        var entries = SectionValue.Children(section, $"a section of {what}s, each keyed by its id");
        return entries.Count > 0 ? entries : throw SectionValue.Error(section, $"at least one {what}, keyed by its id");
    }
}
