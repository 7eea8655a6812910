namespace LLRP.Bench.Contenders;

/// <summary>How a contender runs, which decides what can be measured about it.</summary>
public enum ContenderKind
{
    /// <summary>No proxy: the load generator talks to the origin (the physical ceiling).</summary>
    Direct,

    /// <summary>A .NET app: CPU, peak RSS and allocations are measured.</summary>
    DotNet,

    /// <summary>A native proxy (nginx, HAProxy): CPU and peak RSS of its process group are measured.</summary>
    Native,
}
