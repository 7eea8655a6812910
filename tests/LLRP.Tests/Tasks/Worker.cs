using System.Runtime.ExceptionServices;

namespace LLRP.Tests.Tasks;

/// <summary>
/// A thread of its own, with no synchronization context (completed tasks then run their continuations inline, as on the
/// proxy's socket threads), whose failure <see cref="Join"/> rethrows instead of ending the test process.
/// </summary>
internal sealed class Worker
{
    private readonly Thread _thread;
    private ExceptionDispatchInfo? _failure;

    private Worker(Action body)
    {
        _thread = new Thread(() =>
        {
            try
            {
                body();
            }
            catch (Exception e)
            {
                _failure = ExceptionDispatchInfo.Capture(e);
            }
        })
        { IsBackground = true };
    }

    public static Worker Start(Action body)
    {
        var worker = new Worker(body);
        worker._thread.Start();
        return worker;
    }

    /// <summary>Waits (up to two minutes) for the thread to end and rethrows what it threw.</summary>
    public void Join()
    {
        Assert.True(_thread.Join(TimeSpan.FromMinutes(2)), "the thread did not end");
        _failure?.Throw();
    }
}
