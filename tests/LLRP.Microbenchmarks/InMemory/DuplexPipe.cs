using System.IO.Pipelines;

namespace LLRP.Microbenchmarks.InMemory;

internal sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
{
    public PipeReader Input { get; } = input;

    public PipeWriter Output { get; } = output;

    /// <summary>
    /// Two connected ends. Inline: continuations run in the writer's flush, so nothing completes asynchronously.
    /// Otherwise they run on the thread pool, as with sockets, so every await really suspends.
    /// </summary>
    public static (DuplexPipe Left, DuplexPipe Right) CreatePair(bool inline)
    {
        PipeScheduler scheduler = inline ? PipeScheduler.Inline : new WorkQueueScheduler();
        var options = new PipeOptions(readerScheduler: scheduler, writerScheduler: scheduler, useSynchronizationContext: false);
        var leftToRight = new Pipe(options);
        var rightToLeft = new Pipe(options);
        return (new DuplexPipe(rightToLeft.Reader, leftToRight.Writer), new DuplexPipe(leftToRight.Reader, rightToLeft.Writer));
    }
}
