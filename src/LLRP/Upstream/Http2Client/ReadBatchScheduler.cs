using System.IO.Pipelines;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// The reader scheduler of a stream's response body pipe: what a connection's read loop wakes while it handles the
/// frames of one read (a body's DATA, its end, a reset) runs on that thread once the read is handled and the output's
/// lock is let go (<see cref="Begin"/> … <see cref="End"/>), as the heads of the same read do; anything else, a reader's
/// cancellation on another thread say, goes to the thread pool. A stream moves between connections, so the batch is the
/// thread's, not the connection's.
/// </summary>
internal sealed class ReadBatchScheduler : PipeScheduler
{
    public static readonly ReadBatchScheduler Instance = new();

    [ThreadStatic]
    private static bool t_open;

    [ThreadStatic]
    private static Queue<(Action<object?> Action, object? State)>? t_woken;

    private ReadBatchScheduler()
    {
    }

    /// <summary>A read loop starts handling a read's frames on this thread.</summary>
    public static void Begin() => t_open = true;

    /// <summary>The read's frames are handled and no lock is held: what they woke runs now, each once, in order.</summary>
    public static void End()
    {
        t_open = false;
        if (t_woken is not { } woken)
        {
            return;
        }

        while (woken.TryDequeue(out var next))
        {
            try
            {
                next.Action(next.State);
            }
            catch
            {
                // What is still queued belongs to other readers: to the thread pool, not stranded until this thread's next read.
                while (woken.TryDequeue(out var rest))
                {
                    ThreadPool.Schedule(rest.Action, rest.State);
                }

                throw;
            }
        }
    }

    public override void Schedule(Action<object?> action, object? state)
    {
        if (t_open)
        {
            (t_woken ??= new Queue<(Action<object?>, object?)>()).Enqueue((action, state));
            return;
        }

        ThreadPool.Schedule(action, state);
    }
}
