namespace LLRP.Bench.Reports;

/// <summary>One crank result: its name and metadata, which crank job it belongs to, and one value per round.</summary>
/// <param name="Name">e.g. <c>get-10b-c32/wrk/rps/mean</c>: the shape, then crank's own measurement name.</param>
/// <param name="Description">What <c>crank compare</c> prints in its first column.</param>
/// <param name="Format">A .NET numeric format, as crank's metadata carries (<c>n0</c>, <c>n2</c>).</param>
/// <param name="IsLoad">True for the load job's figures (wrk, curl); false for the application's (CPU, memory).</param>
/// <param name="Values">One value per round; the result is their median.</param>
public sealed record CrankMetric(
    string Name,
    string Description,
    string Format,
    bool IsLoad,
    IReadOnlyList<(DateTime Timestamp, double Value)> Values);
