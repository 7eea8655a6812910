using LLRP.Configuration;

namespace LLRP.Hosting;

/// <summary>The destinations as the configuration gives them now: what <see cref="DestinationReloader"/> receives through <c>IOptionsMonitor</c>.</summary>
internal sealed class ConfiguredDestinations
{
    /// <summary>The destinations read, or null when the configuration has none or they are invalid.</summary>
    public IReadOnlyList<DestinationOptions>? Destinations { get; set; }

    /// <summary>Why the destinations read are not usable, or null.</summary>
    public string? Error { get; set; }
}
