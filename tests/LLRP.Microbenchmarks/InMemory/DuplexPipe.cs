using System.IO.Pipelines;

namespace LLRP.Microbenchmarks.InMemory;

internal sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
{
    public PipeReader Input { get; } = input;

    public PipeWriter Output { get; } = output;

    /// <summary>Two connected ends; continuations run inline, so a round trip completes inside the writer's flush.</summary>
    public static (DuplexPipe Left, DuplexPipe Right) CreatePair()
    {
        var options = new PipeOptions(readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false);
        var leftToRight = new Pipe(options);
        var rightToLeft = new Pipe(options);
        return (new DuplexPipe(rightToLeft.Reader, leftToRight.Writer), new DuplexPipe(leftToRight.Reader, rightToLeft.Writer));
    }
}
