using System.Collections.Concurrent;
using System.IO.Pipelines;

namespace LLRP.Microbenchmarks.InMemory;

/// <summary>
/// Runs pipe continuations on the thread pool without allocating per item, the way Kestrel's socket transport
/// queues them: one queue, one work item that drains it.
/// </summary>
internal sealed class WorkQueueScheduler : PipeScheduler, IThreadPoolWorkItem
{
    private readonly ConcurrentQueue<(Action<object?> Action, object? State)> _work = new();
    private int _scheduled;

    public override void Schedule(Action<object?> action, object? state)
    {
        _work.Enqueue((action, state));
        if (Interlocked.CompareExchange(ref _scheduled, 1, 0) == 0)
        {
            System.Threading.ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
        }
    }

    void IThreadPoolWorkItem.Execute()
    {
        while (true)
        {
            while (_work.TryDequeue(out var item))
            {
                item.Action(item.State);
            }

            Volatile.Write(ref _scheduled, 0);
            if (_work.IsEmpty || Interlocked.CompareExchange(ref _scheduled, 1, 0) != 0)
            {
                return;
            }
        }
    }
}
