namespace LLRP.Routing.Destinations;

/// <summary>
/// Whether a destination takes requests, from two sources that each can take it out:
/// - passive: <c>health.passive.consecutiveFailures</c> transport failures in a row eject it for
///   <c>health.passive.reactivationMs</c>; a success resets the count, and one more failure after the reactivation
///   ejects it again (it comes back on probation, as a half-open circuit breaker). The only destination of the set is
///   never ejected, as nginx: refusing every request would serve nobody better than trying it.
/// - active: the probes of <see cref="ActiveHealthProber"/> take it out after <c>health.active.unhealthyThreshold</c>
///   failures in a row and bring it back after <c>health.active.healthyThreshold</c> successes in a row.
/// </summary>
internal sealed class DestinationHealth(int failureThreshold, long reactivationMs, int healthyThreshold, int unhealthyThreshold)
{
    private int _consecutiveFailures;
    private long _ejectedUntil;
    private volatile bool _probedDown;
    private int _probeSuccesses;
    private int _probeFailures;

    /// <summary>Transport failures in a row that eject it.</summary>
    public int FailureThreshold => failureThreshold;

    /// <summary>How long an ejection lasts.</summary>
    public long ReactivationMs => reactivationMs;

    /// <summary>Whether a passive ejection may take it out: false while it is the set's only destination.</summary>
    public bool CanEject { get; set; }

    /// <summary>Taken out by the active probes.</summary>
    public bool IsProbedDown => _probedDown;

    /// <summary>When a passive ejection ends (<see cref="Environment.TickCount64"/>); in the past when not ejected.</summary>
    public long EjectedUntil => Volatile.Read(ref _ejectedUntil);

    public bool IsAvailable(long now) => !_probedDown && now >= Volatile.Read(ref _ejectedUntil);

    /// <summary>A response came back: the count of failures in a row starts again.</summary>
    public void ReportSuccess()
    {
        if (Volatile.Read(ref _consecutiveFailures) != 0)
        {
            Volatile.Write(ref _consecutiveFailures, 0);
        }
    }

    /// <summary>A transport failure; true when it ejected the destination.</summary>
    public bool ReportFailure(long now)
    {
        if (failureThreshold == 0 || Interlocked.Increment(ref _consecutiveFailures) < failureThreshold || !CanEject)
        {
            return false;
        }

        var until = Volatile.Read(ref _ejectedUntil);
        return now >= until && Interlocked.CompareExchange(ref _ejectedUntil, now + reactivationMs, until) == until;
    }

    /// <summary>The outcome of one active probe; the prober calls this from one probe at a time per destination.</summary>
    /// <returns>True when this probe changed the destination's state (down, or up again).</returns>
    public bool ReportProbe(bool success)
    {
        if (success)
        {
            _probeFailures = 0;
            if (_probedDown && ++_probeSuccesses >= healthyThreshold)
            {
                _probeSuccesses = 0;
                _probedDown = false;
                return true;
            }
        }
        else
        {
            _probeSuccesses = 0;
            if (!_probedDown && ++_probeFailures >= unhealthyThreshold)
            {
                _probeFailures = 0;
                _probedDown = true;
                return true;
            }
        }

        return false;
    }
}
