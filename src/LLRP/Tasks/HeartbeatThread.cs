namespace LLRP.Tasks;

/// <summary>
/// The one thread that runs every <see cref="OnDemandHeartbeat"/>, as Kestrel runs its heartbeat on a thread of its
/// own: it sleeps until the next beat is due, runs the beats due, and sleeps again. A <see cref="Timer"/> per heartbeat
/// queued each beat to the thread pool, whose woken workers then spun (<c>sched_yield</c> and spin-waits) before they
/// slept again, once per timer and per second, on the core that relays; this thread wakes once per due time and is
/// never a thread-pool worker. Started by the first heartbeat added; a background thread, in the default execution context.
/// </summary>
internal static class HeartbeatThread
{
    /// <summary>Guards <see cref="Beats"/>; the thread sleeps on it (<see cref="Monitor.Wait(object, int)"/>), and an added beat wakes it.</summary>
    private static readonly object Gate = new();
    private static readonly List<(OnDemandHeartbeat Heartbeat, long Due)> Beats = [];
    private static Thread? _thread;

    /// <summary>Runs <paramref name="heartbeat"/> every <see cref="OnDemandHeartbeat.IntervalMs"/> from now until <see cref="Remove"/>.</summary>
    public static void Add(OnDemandHeartbeat heartbeat)
    {
        lock (Gate)
        {
            Beats.Add((heartbeat, Environment.TickCount64 + heartbeat.IntervalMs));
            if (_thread is null)
            {
                _thread = new Thread(Run) { IsBackground = true, Name = "LLRP heartbeat" };
                _thread.UnsafeStart();
            }
            else
            {
                // Its sleep may end after the new beat's first due time.
                Monitor.Pulse(Gate);
            }
        }
    }

    /// <summary>No beat of <paramref name="heartbeat"/> is due any more; one already taken to run may still run once, as with a disposed <see cref="Timer"/>.</summary>
    public static void Remove(OnDemandHeartbeat heartbeat)
    {
        lock (Gate)
        {
            Beats.RemoveAll(beat => beat.Heartbeat == heartbeat);
        }
    }

    private static void Run()
    {
        var due = new List<OnDemandHeartbeat>();
        while (true)
        {
            lock (Gate)
            {
                while (true)
                {
                    var now = Environment.TickCount64;
                    var next = long.MaxValue;
                    for (var i = 0; i < Beats.Count; i++)
                    {
                        var (heartbeat, at) = Beats[i];
                        if (at <= now)
                        {
                            due.Add(heartbeat);
                            // A beat that ran late keeps its period from now: no burst of beats to catch up.
                            at = Math.Max(at + heartbeat.IntervalMs, now + 1);
                            Beats[i] = (heartbeat, at);
                        }

                        next = Math.Min(next, at);
                    }

                    if (due.Count > 0)
                    {
                        break;
                    }

                    Monitor.Wait(Gate, next == long.MaxValue ? Timeout.Infinite : (int)Math.Min(next - now, int.MaxValue));
                }
            }

            foreach (var heartbeat in due)
            {
                heartbeat.Beat();
            }

            due.Clear();
        }
    }
}
