namespace LLRP.Bench.Results;

/// <summary>One reading of an idle measure: how many connections were open and idle, and the contender's RSS then.</summary>
/// <param name="Open">Connections open (0 for the reading before the first).</param>
/// <param name="ResidentBytes">VmRSS summed over the contender's processes, a settling second after the step's last connection.</param>
public readonly record struct IdleStep(int Open, long ResidentBytes);
