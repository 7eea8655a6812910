using LLRP.Routing.Destinations;

namespace LLRP.Tests.Routing.Destinations;

public sealed class DestinationHealthTests
{
    private const long Now = 1_000_000;
    private const long ReactivationMs = 10_000;

    [Fact]
    public void Passive_EjectsAfterTheThresholdOfFailuresInARow_ForTheReactivationPeriod()
    {
        var health = Health(failures: 3);

        Assert.False(health.ReportFailure(Now));
        Assert.False(health.ReportFailure(Now));
        Assert.True(health.IsAvailable(Now));
        Assert.True(health.ReportFailure(Now));

        Assert.False(health.IsAvailable(Now));
        Assert.False(health.IsAvailable(Now + ReactivationMs - 1));
        Assert.True(health.IsAvailable(Now + ReactivationMs));
    }

    [Fact]
    public void Passive_ASuccessStartsTheCountAgain()
    {
        var health = Health(failures: 2);

        health.ReportFailure(Now);
        health.ReportSuccess();
        Assert.False(health.ReportFailure(Now));
        Assert.True(health.IsAvailable(Now));
    }

    [Fact]
    public void Passive_AfterReactivation_OneMoreFailureEjectsAgain()
    {
        var health = Health(failures: 3);
        for (var i = 0; i < 3; i++)
        {
            health.ReportFailure(Now);
        }

        var later = Now + ReactivationMs;
        Assert.True(health.IsAvailable(later));
        Assert.True(health.ReportFailure(later));
        Assert.False(health.IsAvailable(later + 1));
    }

    [Fact]
    public void Passive_FailuresWhileEjected_DoNotExtendTheEjection()
    {
        var health = Health(failures: 1);
        Assert.True(health.ReportFailure(Now));

        Assert.False(health.ReportFailure(Now + 5_000));
        Assert.True(health.IsAvailable(Now + ReactivationMs));
    }

    [Fact]
    public void Passive_TheOnlyDestinationIsNeverEjected()
    {
        var health = Health(failures: 1);
        health.CanEject = false;

        Assert.False(health.ReportFailure(Now));
        Assert.True(health.IsAvailable(Now));
    }

    [Fact]
    public void Passive_ZeroThreshold_IsOff()
    {
        var health = Health(failures: 0);
        for (var i = 0; i < 100; i++)
        {
            Assert.False(health.ReportFailure(Now));
        }

        Assert.True(health.IsAvailable(Now));
    }

    [Fact]
    public void Active_DownAfterUnhealthyThreshold_UpAfterHealthyThreshold()
    {
        var health = new DestinationHealth(5, ReactivationMs, healthyThreshold: 2, unhealthyThreshold: 2) { CanEject = true };

        Assert.False(health.ReportProbe(success: false));
        Assert.True(health.IsAvailable(Now));
        Assert.True(health.ReportProbe(success: false));
        Assert.False(health.IsAvailable(Now));
        Assert.True(health.IsProbedDown);

        Assert.False(health.ReportProbe(success: true));
        Assert.False(health.IsAvailable(Now));
        Assert.True(health.ReportProbe(success: true));
        Assert.True(health.IsAvailable(Now));
    }

    [Fact]
    public void Active_AFailureBetweenSuccesses_StartsTheCountAgain()
    {
        var health = new DestinationHealth(5, ReactivationMs, healthyThreshold: 1, unhealthyThreshold: 2) { CanEject = true };

        health.ReportProbe(success: false);
        health.ReportProbe(success: true);
        Assert.False(health.ReportProbe(success: false));
        Assert.True(health.IsAvailable(Now));
    }

    private static DestinationHealth Health(int failures) => new(failures, ReactivationMs, healthyThreshold: 1, unhealthyThreshold: 2) { CanEject = true };
}
