namespace LLRP.Configuration.Routes;

/// <summary>Passive health: a destination with this many transport failures in a row gets no request for the reactivation period.</summary>
/// <param name="ConsecutiveFailures">0 = off (<c>HealthCheck:Passive:Enabled</c> false).</param>
/// <param name="Reactivation">How long an ejected destination rests (<c>HealthCheck:Passive:ReactivationPeriod</c>).</param>
public sealed record PassiveHealthOptions(int ConsecutiveFailures, TimeSpan Reactivation);
