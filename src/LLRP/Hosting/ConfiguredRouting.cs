using LLRP.Configuration.Routes;

namespace LLRP.Hosting;

/// <summary>The routes and clusters as the configuration gives them now: what <see cref="RoutingReloader"/> receives through <c>IOptionsMonitor</c>.</summary>
internal sealed class ConfiguredRouting
{
    /// <summary>The routing read, or null when it is invalid.</summary>
    public RoutingOptions? Routing { get; set; }

    /// <summary>Why the routing read is not usable, or null.</summary>
    public string? Error { get; set; }

    /// <summary>Every configuration value the routing is read from, flattened: equal snapshots read to equal routing.</summary>
    public string Snapshot { get; set; } = "";
}
