using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace LLRP.Bench.Processes;

/// <summary>
/// Measures how fast a .NET process allocates during a window, through an EventPipe session on the
/// System.Runtime EventCounters (what dotnet-counters shows as "Allocation Rate"): each <c>alloc-rate</c>
/// payload carries the bytes allocated in its interval, so the rate is the sum of bytes over the sum of
/// intervals. Partial intervals at the window's edges are left out, which is why a rate is returned.
/// </summary>
public sealed class AllocationMonitor
{
    private const string CounterName = "alloc-rate";

    private readonly EventPipeSession _session;
    private readonly Task _processing;
    private double _bytes;
    private double _seconds;

    private AllocationMonitor(EventPipeSession session)
    {
        _session = session;
        var source = new EventPipeEventSource(session.EventStream);
        source.Dynamic.All += OnEvent;
        _processing = Task.Factory.StartNew(source.Process, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default)
            .ContinueWith(_ => source.Dispose(), TaskScheduler.Default);
    }

    /// <summary>Starts a session on <paramref name="pid"/>; null (and why) when the process has no diagnostics endpoint.</summary>
    public static AllocationMonitor? TryStart(int pid, out string? error)
    {
        var provider = new EventPipeProvider(
            "System.Runtime",
            EventLevel.Informational,
            0,
            new Dictionary<string, string> { ["EventCounterIntervalSec"] = "1" });
        try
        {
            var session = new DiagnosticsClient(pid).StartEventPipeSession([provider], requestRundown: false);
            error = null;
            return new AllocationMonitor(session);
        }
        catch (Exception e) when (e is DiagnosticsClientException or IOException or TimeoutException)
        {
            error = e.Message;
            return null;
        }
    }

    /// <summary>Ends the session; the allocation rate in bytes per second, or null if no interval completed.</summary>
    public async Task<double?> StopAsync()
    {
        try
        {
            await _session.StopAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(10));
        }
        catch (Exception e) when (e is DiagnosticsClientException or IOException or TimeoutException)
        {
            // The process may have exited; whatever was read so far still counts.
        }

        await _processing.WaitAsync(TimeSpan.FromSeconds(10)).ContinueWith(_ => { }, TaskScheduler.Default);
        _session.Dispose();
        return _seconds > 0 ? _bytes / _seconds : null;
    }

    private void OnEvent(TraceEvent e)
    {
        if (e.EventName != "EventCounters"
            || e.PayloadValue(0) is not IDictionary<string, object> outer
            || !outer.TryGetValue("Payload", out var inner)
            || inner is not IDictionary<string, object> payload
            || !payload.TryGetValue("Name", out var name)
            || name as string != CounterName)
        {
            return;
        }

        _bytes += Convert.ToDouble(payload["Increment"], System.Globalization.CultureInfo.InvariantCulture);
        _seconds += Convert.ToDouble(payload["IntervalSec"], System.Globalization.CultureInfo.InvariantCulture);
    }
}
