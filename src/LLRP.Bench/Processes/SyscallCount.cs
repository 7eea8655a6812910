namespace LLRP.Bench.Processes;

/// <summary>One row of <c>strace -c</c>'s summary: a system call, how often it was made, how often it failed.</summary>
public sealed record SyscallCount(string Name, long Calls, long Errors);
