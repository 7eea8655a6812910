namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>The active health check the destination tests turn on, and how a test knows the proxy has taken a destination out.</summary>
public static class ActiveHealth
{
    /// <summary>Probe failures in a row that take a destination out (the default).</summary>
    public const int UnhealthyThreshold = 2;

    /// <summary>Probes of <see cref="DestinationOrigin.HealthPath"/> every 100 ms; two failures take a destination out, one success brings it back.</summary>
    public static readonly string[] Settings =
    [
        $"health.active.path={DestinationOrigin.HealthPath}",
        "health.active.intervalMs=100",
        $"health.active.unhealthyThreshold={UnhealthyThreshold}",
        "health.active.healthyThreshold=1",
    ];

    /// <summary>
    /// Waits until <paramref name="origin"/> has answered its current <see cref="DestinationOrigin.HealthStatus"/> to
    /// more probes than take it out: a destination's next probe goes once the previous one's answer is in, so by then
    /// the proxy has read enough failures.
    /// </summary>
    public static Task WaitUntilProbedDownAsync(DestinationOrigin origin) =>
        Deadline.UntilAsync(
            () => origin.ProbesAnswered(origin.HealthStatus) > UnhealthyThreshold + 1,
            $"Destination {origin.Name} failing its probes");
}
