using System.Diagnostics.Metrics;
using System.IO.Pipelines;
using LLRP.ClientSide;
using LLRP.Diagnostics;
using LLRP.Upstream;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Tests.Upstream;

/// <summary><see cref="TunnelActivity"/>: what the heartbeat's idle timeout and the stop reach, and when.</summary>
public sealed class TunnelActivityTests
{
    private readonly ProxyMetrics _metrics = new(new ServiceCollection().AddMetrics().BuildServiceProvider().GetRequiredService<IMeterFactory>());

    [Fact]
    public void AbortUpstream_OpenTunnel_AbortsTheDestinationsEnd()
    {
        var (activity, end) = Open();

        activity.AbortUpstream();

        Assert.Equal(1, end.Aborts);
    }

    [Fact]
    public void AbortUpstream_AfterClose_LeavesTheDisposedEndAlone()
    {
        var (activity, end) = Open();

        activity.Close();
        activity.AbortUpstream();

        Assert.Equal(0, end.Aborts);
        Assert.False(activity.IsOpen);
    }

    [Fact]
    public void IsIdle_OnlyAnOpenTunnelSilentForTheTimeout()
    {
        var (activity, _) = Open();
        var now = Environment.TickCount64;

        Assert.False(activity.IsIdle(now, idleMs: 60_000));
        Assert.True(activity.IsIdle(now + 60_000, idleMs: 60_000));
        activity.Close();
        Assert.False(activity.IsIdle(now + 60_000, idleMs: 60_000));
    }

    private (TunnelActivity Activity, CountingEnd End) Open()
    {
        var activity = new TunnelActivity(_metrics);
        var end = new CountingEnd();
        Assert.True(activity.TryOpen(end, new ClientResponseWriter(new Pipe().Writer, _metrics, timed: false)));
        return (activity, end);
    }

    private sealed class CountingEnd : IUpstreamTunnelEnd
    {
        public int Aborts { get; private set; }

        public void Abort() => Aborts++;
    }
}
