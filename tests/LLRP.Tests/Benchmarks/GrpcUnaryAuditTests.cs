using LLRP.Bench.Load;

namespace LLRP.Tests.Benchmarks;

/// <summary>The comparison of h2load's 2xx responses with the origin's count of gRPC unary calls answered OK.</summary>
public sealed class GrpcUnaryAuditTests
{
    /// <summary>4 connections × 8 streams: 32 calls in flight at each end, 64 in all.</summary>
    private static readonly LoadShape _shape = LoadShapes.All.Single(s => s.Name == "grpc-unary-h2load-c4m8");

    [Theory]
    [InlineData(1000, 1000)]
    [InlineData(1064, 1000)]
    public void Agreeing_WithinTheCallsInFlight(long answeredOk, long responses2xx)
        => Assert.Null(GrpcUnaryAudit.Compare(answeredOk, responses2xx, _shape));

    [Fact]
    public void FewerAnsweredOkThan2xx_SomeResponsesWereNotSuccessfulCalls()
    {
        var disagreement = GrpcUnaryAudit.Compare(990, 1000, _shape);

        Assert.Contains("10 2xx responses were not successful gRPC calls", disagreement, StringComparison.Ordinal);
    }

    [Fact]
    public void MoreAnsweredOkThanTheCallsInFlight_Disagree()
    {
        var disagreement = GrpcUnaryAudit.Compare(1065, 1000, _shape);

        Assert.Contains("more apart than the 64 calls in flight", disagreement, StringComparison.Ordinal);
    }
}
