using Grpc.Core;
using Grpc.Net.Client;
using LLRP.Downstream;
using LLRP.Downstream.Grpc;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The bundled origin's count of gRPC unary calls answered with status OK (<c>/grpc-unary-ok</c>), by which the bench runner
/// learns that calls a load generator saw only as <c>:status</c> 200 succeeded at the gRPC level (the status is in trailers).
/// </summary>
public sealed class BundledOriginGrpcCountTests
{
    [Fact]
    public async Task GrpcUnaryOk_CountsUnaryCallsAnsweredOkOnly()
    {
        await using var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]));
        using var channel = GrpcChannel.ForAddress(origin.Url);
        var client = new Echo.EchoClient(channel);
        using var http = new HttpClient { DefaultRequestVersion = new Version(2, 0), DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
        var before = await http.GetStringAsync(new Uri($"{origin.Url}/grpc-unary-ok")).WaitAsync(Deadline.Io);

        await client.UnaryAsync(new EchoMessage { Text = "a" }).ResponseAsync.WaitAsync(Deadline.Io);
        await client.UnaryAsync(new EchoMessage { Text = "b" }).ResponseAsync.WaitAsync(Deadline.Io);
        var failed = await Assert.ThrowsAsync<RpcException>(() => client.UnaryAsync(new EchoMessage { Text = "c", FailWith = (int)StatusCode.Unavailable }).ResponseAsync.WaitAsync(Deadline.Io));
        var after = await http.GetStringAsync(new Uri($"{origin.Url}/grpc-unary-ok")).WaitAsync(Deadline.Io);

        Assert.Equal(StatusCode.Unavailable, failed.StatusCode);
        Assert.Equal("0\n", before);
        Assert.Equal("2\n", after);
    }
}
