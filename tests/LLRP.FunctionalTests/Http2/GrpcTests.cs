using Grpc.Core;
using Grpc.Net.Client;
using LLRP.Downstream;
using LLRP.Downstream.Grpc;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// gRPC end to end (gRPC over HTTP/2), in every mode: Grpc.Net.Client over h2c to the proxy, the proxy over h2c (a
/// cluster at <c>HttpRequest:Version</c> 2, <c>RequestVersionExact</c>) to the bundled origin's <see cref="EchoService"/>.
/// Messages are relayed as they come, trailers (<c>grpc-status</c>, <c>grpc-message</c>) are relayed, and cancellation
/// crosses the proxy.
/// </summary>
public sealed class GrpcTests
{
    [Theory]
    [MemberData(nameof(Http2Servers.Http2ClusterModes), MemberType = typeof(Http2Servers))]
    public async Task Unary_Answered(string mode)
    {
        await using var setup = await GrpcSetup.StartAsync(mode);

        var reply = await setup.Client.UnaryAsync(new EchoMessage { Text = "hello" });

        Assert.Equal("hello", reply.Text);
    }

    [Theory]
    [MemberData(nameof(Http2Servers.Http2ClusterModes), MemberType = typeof(Http2Servers))]
    public async Task ServerStreaming_EveryMessageInOrder(string mode)
    {
        await using var setup = await GrpcSetup.StartAsync(mode);

        using var call = setup.Client.ServerStream(new EchoMessage { Text = "m", Count = 50 });
        var texts = await call.ResponseStream.ReadAllAsync().Select(message => message.Text).ToListAsync();

        Assert.Equal(Enumerable.Range(0, 50).Select(i => $"m{i}"), texts);
    }

    [Theory]
    [MemberData(nameof(Http2Servers.Http2ClusterModes), MemberType = typeof(Http2Servers))]
    public async Task ClientStreaming_AllMessagesReachTheOrigin(string mode)
    {
        await using var setup = await GrpcSetup.StartAsync(mode);

        using var call = setup.Client.ClientStream();
        for (var i = 0; i < 20; i++)
        {
            await call.RequestStream.WriteAsync(new EchoMessage { Text = $"c{i}" });
        }

        await call.RequestStream.CompleteAsync();
        var reply = await call;

        Assert.Equal(string.Join(',', Enumerable.Range(0, 20).Select(i => $"c{i}")), reply.Text);
    }

    // Each message must cross the proxy on its own, both ways: the next is written only once the previous one's echo came back.
    [Theory]
    [MemberData(nameof(Http2Servers.Http2ClusterModes), MemberType = typeof(Http2Servers))]
    public async Task Bidirectional_EachMessageEchoedBeforeTheNextIsSent(string mode)
    {
        await using var setup = await GrpcSetup.StartAsync(mode);

        using var call = setup.Client.Bidi();
        for (var i = 0; i < 10; i++)
        {
            await call.RequestStream.WriteAsync(new EchoMessage { Text = $"b{i}" });
            Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
            Assert.Equal($"b{i}", call.ResponseStream.Current.Text);
        }

        await call.RequestStream.CompleteAsync();
        Assert.False(await call.ResponseStream.MoveNext(CancellationToken.None));
    }

    // gRPC over HTTP/2: the status travels in trailers (or a trailers-only response), relayed as the origin set it.
    [Theory]
    [MemberData(nameof(Http2Servers.Http2ClusterModes), MemberType = typeof(Http2Servers))]
    public async Task OriginStatus_RelayedInTrailers(string mode)
    {
        await using var setup = await GrpcSetup.StartAsync(mode);

        var failure = await Assert.ThrowsAsync<RpcException>(async () => await setup.Client.UnaryAsync(new EchoMessage { Text = "not here", FailWith = (int)StatusCode.NotFound }));
        using var stream = setup.Client.ServerStream(new EchoMessage { Text = "gone", Count = 1, FailWith = (int)StatusCode.PermissionDenied });
        var streamed = await Assert.ThrowsAsync<RpcException>(async () => await stream.ResponseStream.MoveNext(CancellationToken.None));

        Assert.Equal((StatusCode.NotFound, "not here"), (failure.StatusCode, failure.Status.Detail));
        Assert.Equal((StatusCode.PermissionDenied, "gone"), (streamed.StatusCode, streamed.Status.Detail));
    }

    // RFC 9113 §8.1: the client's RST_STREAM cancels the upstream call; the origin sees its call cancelled.
    [Theory]
    [MemberData(nameof(Http2Servers.Http2ClusterModes), MemberType = typeof(Http2Servers))]
    public async Task ClientCancels_OriginSeesCancellation(string mode)
    {
        await using var setup = await GrpcSetup.StartAsync(mode);
        var before = EchoService.Cancelled;
        using var cancel = new CancellationTokenSource();

        using var call = setup.Client.Hold(new EchoMessage { Text = "held" }, cancellationToken: cancel.Token);
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
        await cancel.CancelAsync();

        await Deadline.UntilAsync(() => EchoService.Cancelled > before, "The origin seeing the call cancelled");
    }

    // gRPC over HTTP/2: a call whose destination cannot be reached ends UNAVAILABLE (14), the status a client may retry.
    [Theory]
    [MemberData(nameof(Http2Servers.Http2ClusterModes), MemberType = typeof(Http2Servers))]
    public async Task OriginUnreachable_Unavailable(string mode)
    {
        await using var proxy = await GrpcSetup.StartProxyAsync($"http://127.0.0.1:{LoopbackPort.Closed()}", mode);
        using var channel = GrpcChannel.ForAddress(proxy.Url);

        var failure = await Assert.ThrowsAsync<RpcException>(async () => await new Echo.EchoClient(channel).UnaryAsync(new EchoMessage { Text = "x" }));

        Assert.Equal(StatusCode.Unavailable, failure.StatusCode);
    }

    /// <summary>The bundled origin on h2c, the proxy in front of it with a cluster at HTTP/2, and a client of the proxy.</summary>
    private sealed class GrpcSetup : IAsyncDisposable
    {
        private readonly HostedApp _origin;
        private readonly HostedApp _proxy;
        private readonly GrpcChannel _channel;

        private GrpcSetup(HostedApp origin, HostedApp proxy)
        {
            _origin = origin;
            _proxy = proxy;
            _channel = GrpcChannel.ForAddress(proxy.Url);
            Client = new Echo.EchoClient(_channel);
        }

        public Echo.EchoClient Client { get; }

        public static async Task<GrpcSetup> StartAsync(string mode)
        {
            var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2"]));
            try
            {
                return new GrpcSetup(origin, await StartProxyAsync(origin.Url, mode));
            }
            catch
            {
                await origin.DisposeAsync();
                throw;
            }
        }

        /// <summary>The proxy with one catch-all route to <paramref name="destination"/>, whose cluster speaks HTTP/2 by prior knowledge.</summary>
        public static Task<HostedApp> StartProxyAsync(string destination, string mode)
            => HostedApp.StartAsync(ProxyHost.Build(
            [
                "--urls=http://127.0.0.1:0",
                "--ReverseProxy:Routes:grpc:ClusterId=echo",
                "--ReverseProxy:Routes:grpc:Match:Path={**any}",
                $"--ReverseProxy:Clusters:echo:Destinations:origin:Address={destination}",
                "--ReverseProxy:Clusters:echo:HttpRequest:Version=2",
                "--ReverseProxy:Clusters:echo:HttpRequest:VersionPolicy=RequestVersionExact",
                .. LlrpModes.Settings(mode).Select(setting => "--" + setting),
            ]));

        public async ValueTask DisposeAsync()
        {
            _channel.Dispose();
            await _proxy.DisposeAsync();
            await _origin.DisposeAsync();
        }
    }
}
