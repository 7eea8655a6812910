namespace LLRP.Bench.Load;

/// <summary>
/// Whether an h2load run of a gRPC shape (<see cref="LoadShape.GrpcByH2load"/>) made successful gRPC calls: h2load sees only
/// <c>:status</c>, and a gRPC failure travels in trailers (<c>grpc-status</c>) after a 200, so the bundled origin counts the
/// unary calls it answered with status OK and the runner compares that count over the window with h2load's 2xx responses.
/// Every 2xx must be such a call; the origin may have answered more, at most the calls in flight when the warm-up ended
/// (they may reach it after the first reading) and when the window ended (h2load stops without their responses).
/// </summary>
public static class GrpcUnaryAudit
{
    /// <summary>Null when the counts agree; otherwise how they differ.</summary>
    /// <param name="answeredOk">The unary calls the origin answered with status OK between its readings before and after the window.</param>
    /// <param name="responses2xx">h2load's 2xx responses in the window.</param>
    /// <param name="shape">The shape, whose connections × streams are the calls in flight.</param>
    public static string? Compare(long answeredOk, long responses2xx, LoadShape shape)
    {
        var inFlight = 2L * shape.Connections * shape.StreamsPerConnection;
        return answeredOk < responses2xx
            ? $"h2load counted {responses2xx} 2xx responses but the origin answered {answeredOk} calls with status OK: {responses2xx - answeredOk} 2xx responses were not successful gRPC calls"
            : answeredOk - responses2xx > inFlight
            ? $"the origin answered {answeredOk} calls with status OK but h2load counted {responses2xx} 2xx responses, more apart than the {inFlight} calls in flight at the ends of the warm-up and of the window"
            : null;
    }
}
