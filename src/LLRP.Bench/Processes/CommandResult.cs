namespace LLRP.Bench.Processes;

/// <summary>How a short-lived command ended.</summary>
/// <param name="ExitCode">Its exit status; -1 when it was killed for running past its time limit.</param>
/// <param name="StandardOutput">Everything it wrote to stdout.</param>
/// <param name="StandardError">Everything it wrote to stderr.</param>
public sealed record CommandResult(int ExitCode, string StandardOutput, string StandardError)
{
    public bool TimedOut => ExitCode == -1;
}
