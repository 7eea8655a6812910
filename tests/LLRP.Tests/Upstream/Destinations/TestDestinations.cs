using System.Diagnostics.Metrics;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Upstream.Destinations;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Tests.Upstream.Destinations;

/// <summary>Registries of destinations named a, b, c… on made-up hosts, with the options given.</summary>
internal static class TestDestinations
{
    public static DestinationRegistry Registry(ProxyOptions options)
        => new(options, new ProxyMetrics(new ServiceCollection().AddMetrics().BuildServiceProvider().GetRequiredService<IMeterFactory>()));

    public static ProxyOptions Options(params int[] weights) => EjectedAfter(5, weights);

    /// <summary>Destinations of the given weights, ejected after <paramref name="passiveFailures"/> failures in a row.</summary>
    public static ProxyOptions EjectedAfter(int passiveFailures, params int[] weights)
    {
        var options = new ProxyOptions
        {
            PassiveHealthFailures = passiveFailures,
            Destinations = weights.Select((weight, i) => new DestinationOptions(DownstreamEndpoint.TryParse($"http://{(char)('a' + i)}.test/")!, weight)).ToArray(),
            Routing = RoutingOptions.Unread,
        };
        return options with { Routing = RoutingOptionsReader.Implicit(options.Destinations, options) };
    }

    /// <summary>The destination's host name: a, b, c….</summary>
    public static string Short(Destination? destination) => destination?.Endpoint.Host[..1] ?? "-";
}
