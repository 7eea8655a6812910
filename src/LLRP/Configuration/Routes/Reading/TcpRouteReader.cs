using System.Globalization;
using System.Net;
using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>One TCP route of <c>ReverseProxy:TcpRoutes</c>; its id is its key.</summary>
internal static class TcpRouteReader
{
    private static readonly string[] Keys = ["Listen", "ClusterId", "IdleTimeout", "ConnectTimeout", "MaxConnections", "AcceptProxyProtocol", "TrustedNetworks", "ProxyProtocolTimeout", "Metadata"];

    private const string ListenAllowed = "an address literal and a port to listen on, such as 127.0.0.1:9900, [::1]:9900 or *:9900 (every interface)";

    public static TcpRouteOptions Read(IConfigurationSection route, IReadOnlyList<ClusterOptions> clusters, ProxyOptions defaults)
    {
        SectionValue.Children(route, "a TCP route: a section with Listen and ClusterId");
        SectionKeys.Check(route, Keys);
        var listenSection = route.GetSection("Listen");
        var listen = ParseListen(SectionValue.Required(listenSection, ListenAllowed)) ?? throw SectionValue.Error(listenSection, ListenAllowed);
        var clusterSection = route.GetSection("ClusterId");
        var clusterId = SectionValue.Required(clusterSection, "the id of a cluster of ReverseProxy:Clusters with tcp:// destinations");
        var cluster = clusters.FirstOrDefault(c => c.Id.Equals(clusterId, StringComparison.OrdinalIgnoreCase))
            ?? throw SectionValue.Error(clusterSection, $"the id of a cluster of ReverseProxy:Clusters: {string.Join(", ", clusters.Select(c => c.Id))}");
        if (!cluster.IsTcp)
        {
            throw SectionValue.Error(clusterSection, $"a cluster whose destinations are tcp://host:port; {cluster.Id}'s are http(s):// ({cluster.Destinations[0].Endpoint}), which only Routes take");
        }

        MetadataSection.Check(route.GetSection("Metadata"));
        var accept = SectionValue.Bool(route.GetSection("AcceptProxyProtocol")) ?? false;
        var trusted = ReadTrustedNetworks(route.GetSection("TrustedNetworks"), accept);
        return new TcpRouteOptions(
            route.Key,
            listen,
            cluster.Id,
            SectionValue.Duration(route.GetSection("IdleTimeout")) ?? TcpRouteOptions.DefaultIdleTimeout,
            SectionValue.Duration(route.GetSection("ConnectTimeout")) ?? defaults.ConnectTimeout,
            SectionValue.Int(route.GetSection("MaxConnections"), 0) ?? 0)
        {
            AcceptProxyProtocol = accept,
            TrustedNetworks = trusted,
            ProxyProtocolTimeout = SectionValue.Duration(route.GetSection("ProxyProtocolTimeout")) ?? TcpRouteOptions.DefaultProxyProtocolTimeout,
        };
    }

    /// <summary><c>TrustedNetworks</c>: required and only allowed with <c>AcceptProxyProtocol</c> true.</summary>
    private static IReadOnlyList<IPNetwork> ReadTrustedNetworks(IConfigurationSection section, bool accept)
    {
        var networks = SectionValue.List(section, NetworkSyntax.Allowed).Select((value, i) => NetworkSyntax.Parse(value) ?? throw SectionValue.Error(section.GetSection(i.ToString(CultureInfo.InvariantCulture)), NetworkSyntax.Allowed)).ToList();
        return (accept, networks.Count) switch
        {
            (true, 0) => throw SectionValue.Error(section, $"{NetworkSyntax.Allowed}, at least one with AcceptProxyProtocol true: only their connections may say where they come from"),
            (false, > 0) => throw SectionValue.Error(section, "no TrustedNetworks without AcceptProxyProtocol true"),
            (_, 0) => Array.Empty<IPNetwork>(),
            _ => networks,
        };
    }

    /// <summary><c>a.b.c.d:port</c>, <c>[v6]:port</c> or <c>*:port</c>, the port always given (0: one the system chooses).</summary>
    public static IPEndPoint? ParseListen(string value)
    {
        var text = value.Trim();
        var colon = text.LastIndexOf(':');
        if (colon <= 0 || colon < text.LastIndexOf(']')
            || !int.TryParse(text.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var port) || port > IPEndPoint.MaxPort)
        {
            return null;
        }

        var host = text[..colon];
        if (host == "*")
        {
            return new IPEndPoint(IPAddress.Any, port);
        }

        var bracketed = host.StartsWith('[') && host.EndsWith(']');
        return IPAddress.TryParse(bracketed ? host[1..^1] : host, out var address)
               && bracketed == (address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6)
            ? new IPEndPoint(address, port)
            : null;
    }
}
