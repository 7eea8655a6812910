using LLRP.Bench.Processes;

namespace LLRP.Bench.Results;

/// <summary>One contender's system calls under a short load (<see cref="SyscallProbe"/>) in one round.</summary>
/// <param name="Shape">The shape of the probe's load (GET 10 B).</param>
/// <param name="Requests">Requests the probe's load completed.</param>
/// <param name="Summary">What strace counted over the probe.</param>
public sealed record SyscallSample(string Contender, string Shape, int Round, DateTime Timestamp, long Requests, SyscallSummary Summary)
{
    public double PerRequest => (double)Summary.Total / Requests;

    /// <summary>Receives that failed (EAGAIN: nothing to read) per request.</summary>
    public double FailedReceivesPerRequest => (double)Summary.FailedReceives / Requests;
}
