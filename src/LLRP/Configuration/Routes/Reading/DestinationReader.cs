using Microsoft.Extensions.Configuration;
using ReverseProxyKeys = LLRP.Configuration.ConfigurationKeys.ReverseProxySection;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>A cluster's <c>Destinations</c>: each keyed by its name, with <c>Address</c>, <c>Host</c> and <c>Metadata</c>.</summary>
internal static class DestinationReader
{
    private static readonly string[] DestinationKeys = ["Address", "Host", "Metadata"];

    private const string AddressAllowed = "an absolute http:// or https:// URI without query or user info, or tcp://host:port in the cluster of a TCP route";

    private static readonly Dictionary<string, string> Unsupported = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Health"] = "a separate health address; probes go to Address followed by HealthCheck:Active:Path",
    };

    /// <summary>One to <see cref="ProxyOptionsReader.MaxDestinations"/> destinations; weights only with a policy that uses them.</summary>
    public static IReadOnlyList<DestinationOptions> Read(IConfigurationSection destinations, BalancingPolicy balancing, IConfigurationSection balancingSection)
    {
        var entries = SectionValue.Children(destinations, "a section of destinations, each keyed by its name");
        if (entries.Count is 0 or > ProxyOptionsReader.MaxDestinations)
        {
            throw new ProxyConfigurationException(destinations.Path, $"{entries.Count} destinations", $"1 to {ProxyOptionsReader.MaxDestinations} destinations");
        }

        var read = entries.Select(ReadDestination).ToList();
        if (read.FindIndex(destination => destination.Endpoint.IsTcp != read[0].Endpoint.IsTcp) is var mixed and >= 0)
        {
            throw SectionValue.Error(
                entries[mixed].GetSection("Address"),
                $"a destination of the same kind as {entries[0].Key}'s ({read[0].Endpoint}): a cluster's destinations are all tcp:// (for TCP routes) or all http(s):// (for routes)");
        }

        if (read[0].Endpoint.IsTcp && read.FindIndex(destination => destination.Host is not null) is var hosted and >= 0)
        {
            throw SectionValue.Error(entries[hosted].GetSection("Host"), "no Host for a tcp:// destination: its connections carry bytes, not requests");
        }

        if (balancing is BalancingPolicy.RoundRobin or BalancingPolicy.RoundRobinPerConnection or BalancingPolicy.Random or BalancingPolicy.FirstAlphabetical
            && read.FindIndex(destination => destination.Weight != 1) is var weighted and >= 0)
        {
            throw SectionValue.Error(
                entries[weighted].GetSection("Metadata").GetSection(ReverseProxyKeys.Weight),
                $"no weight with LoadBalancingPolicy {balancing} ({balancingSection.Path}), which ignores weights; weights need WeightedRoundRobin, LeastRequests or PowerOfTwoChoices");
        }

        return read;
    }

    private static DestinationOptions ReadDestination(IConfigurationSection destination)
    {
        SectionValue.Children(destination, "a destination: a section with Address");
        SectionKeys.Check(destination, DestinationKeys, Unsupported);
        var addressSection = destination.GetSection("Address");
        var address = SectionValue.Required(addressSection, AddressAllowed);
        var endpoint = DestinationEndpoint.TryParse(address) ?? DestinationEndpoint.TryParseTcp(address) ?? throw SectionValue.Error(addressSection, AddressAllowed);
        var hostSection = destination.GetSection("Host");
        var host = SectionValue.String(hostSection);
        if (host is not null && !HostSyntax.IsValid(host, wildcards: false))
        {
            throw SectionValue.Error(hostSection, "the Host its requests carry: host or host:port");
        }

        var metadata = MetadataSection.Check(destination.GetSection("Metadata"), ReverseProxyKeys.Weight);
        var weight = SectionValue.Int(metadata.GetSection(ReverseProxyKeys.Weight), 1, DestinationOptions.MaxWeight) ?? 1;
        return new DestinationOptions(endpoint, weight, destination.Key, host);
    }
}
