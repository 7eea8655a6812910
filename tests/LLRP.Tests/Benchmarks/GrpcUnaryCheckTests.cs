using LLRP.Bench.Load;
using LLRP.Downstream;

namespace LLRP.Tests.Benchmarks;

/// <summary>The one gRPC unary call the runner makes through a contender before h2load's gRPC shape, against the bundled origin.</summary>
public sealed class GrpcUnaryCheckTests
{
    [Fact]
    public async Task Check_OriginSpeakingH2c_Succeeds()
    {
        await using var origin = DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]);
        await origin.StartAsync();

        Assert.Null(await GrpcUnaryCheck.RunAsync(new Uri(origin.Urls.First()).Port, CancellationToken.None));
    }

    /// <summary>An HTTP/1.1-only listener cannot carry gRPC (its status travels in HTTP/2 trailers): the check says the call failed.</summary>
    [Fact]
    public async Task Check_OriginSpeakingHttp11Only_FailsWithTheStatus()
    {
        await using var origin = DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http1"]);
        await origin.StartAsync();

        var error = await GrpcUnaryCheck.RunAsync(new Uri(origin.Urls.First()).Port, CancellationToken.None);

        Assert.StartsWith("the check call ended with Status(StatusCode=", error, StringComparison.Ordinal);
    }
}
