using LLRP.Bench.Load;

namespace LLRP.Bench.Results;

/// <summary>One contender under one shape in one round.</summary>
/// <param name="CpuMicrosecondsPerRequest">Proxy user + system CPU over the window ÷ requests; null for direct.</param>
/// <param name="PeakResidentBytes">Peak RSS of the proxy's processes during the window; null for direct.</param>
/// <param name="AllocatedBytesPerRequest">Managed allocation rate ÷ requests/s; null unless a .NET contender.</param>
/// <param name="OriginRequests">
/// For a balancing shape, the requests each origin of <see cref="Origins.OriginPlan.Balance"/> received during the window,
/// in its order; null otherwise, or when a count could not be read.
/// </param>
public sealed record ShapeSample(
    string Contender,
    LoadShape Shape,
    int Round,
    DateTime Timestamp,
    WrkResult Wrk,
    double? CpuMicrosecondsPerRequest,
    long? PeakResidentBytes,
    double? AllocatedBytesPerRequest,
    IReadOnlyList<long>? OriginRequests = null);
