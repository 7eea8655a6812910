namespace LLRP.Configuration.Routes;

/// <summary>Active health: every interval each destination gets <c>GET</c> of its base URI followed by <see cref="Path"/>.</summary>
/// <param name="Path">An absolute path, with an optional query (<c>HealthCheck:Active:Path</c> and <c>Query</c>).</param>
/// <param name="Interval">Between two probes of a destination.</param>
/// <param name="Timeout">A probe without a response head in time fails.</param>
/// <param name="HealthyThreshold">Successful probes in a row that bring a destination back.</param>
/// <param name="UnhealthyThreshold">Failed probes in a row that take it out (<c>Metadata:ConsecutiveFailuresHealthPolicy.Threshold</c>).</param>
public sealed record ActiveHealthOptions(string Path, TimeSpan Interval, TimeSpan Timeout, int HealthyThreshold, int UnhealthyThreshold);
