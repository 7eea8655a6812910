namespace LLRP.Bench.Results;

/// <summary>One contender holding idle keep-alive client connections in one round.</summary>
/// <param name="Requested">Connections asked for.</param>
/// <param name="Steps">
/// RSS before the first connection (0 open), then after each step of the set's growth (a quarter of
/// <paramref name="Requested"/> each), every reading a settling second after the step's last connection.
/// </param>
/// <param name="UpstreamConnections">Established TCP connections from the contender's processes to the origin, while idle.</param>
/// <param name="Error">Null when every connection was opened; otherwise what went wrong.</param>
public sealed record IdleSample(
    string Contender,
    int Round,
    DateTime Timestamp,
    int Requested,
    IReadOnlyList<IdleStep> Steps,
    int UpstreamConnections,
    string? Error)
{
    /// <summary>Connections that answered their GET with a 200 and were held open at the last step.</summary>
    public int Opened => Steps[^1].Open;

    /// <summary>RSS before the first connection.</summary>
    public long ResidentBytesBefore => Steps[0].ResidentBytes;

    /// <summary>
    /// What one more idle connection costs: the least-squares slope of RSS over the steps after the first (the
    /// reading before any connection is left out, so what the first quarter paid once does not count); null without two.
    /// </summary>
    public double? SlopeBytesPerConnection => ResidentSlope.LeastSquares([.. Steps.Skip(1)]);

    /// <summary>RSS growth from before the first connection to the last step, divided by the connections opened; null when none was.</summary>
    public double? BytesPerConnection => Opened > 0 ? (double)(Steps[^1].ResidentBytes - Steps[0].ResidentBytes) / Opened : null;
}
