namespace LLRP.Bench.Processes;

/// <summary>What <c>strace -c</c> counted over a window: every system call made, and the receives that failed.</summary>
/// <param name="Calls">Its rows, without the total, in its order (most time first).</param>
public sealed record SyscallSummary(IReadOnlyList<SyscallCount> Calls)
{
    /// <summary>The calls that receive from a socket: a failure of one is a receive that found nothing (EAGAIN).</summary>
    public static readonly IReadOnlyList<string> Receives = ["recvfrom", "recvmsg", "recvmmsg", "read", "readv"];

    public long Total => Calls.Sum(call => call.Calls);

    public long FailedReceives => Calls.Where(call => Receives.Contains(call.Name)).Sum(call => call.Errors);
}
