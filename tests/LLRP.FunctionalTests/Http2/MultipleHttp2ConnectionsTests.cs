using Grpc.Core;
using Grpc.Net.Client;
using LLRP.Downstream;
using LLRP.Downstream.Grpc;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;
using LLRP.Routing;
using LLRP.Routing.Destinations;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// A cluster's <c>HttpClient:EnableMultipleHttp2Connections</c> to an h2c destination that allows 2 concurrent streams per
/// connection (RFC 9113 §6.5.2 SETTINGS_MAX_CONCURRENT_STREAMS), seen from a TCP relay in front of it that counts the
/// proxy's connections: 4 gRPC calls held open at once need a second connection (true, the default); with false they
/// share one, the calls beyond the limit waiting for a stream of it. The first two calls are answered before the next two
/// start, so the proxy's client knows the destination's limit (its SETTINGS) when it sends them.
/// </summary>
public sealed class MultipleHttp2ConnectionsTests
{
    private const int StreamLimit = 2;

    // Over HttpClient, and over raw mode's own HTTP/2 client, which opens a connection when every one is at the limit.
    [Theory]
    [InlineData(LlrpModes.RawPooled)]
    [InlineData(LlrpModes.RawPooledOwnHttp2)]
    public async Task True_CallsBeyondTheStreamLimitOpenAnotherConnection(string mode)
    {
        await using var setup = await Setup.StartAsync(multipleConnections: true, mode);
        List<AsyncServerStreamingCall<EchoMessage>> calls = [];
        try
        {
            foreach (var batch in new[] { "first", "more" })
            {
                var started = Enumerable.Range(0, StreamLimit).Select(i => setup.Client.Hold(new EchoMessage { Text = $"{batch}{i}" })).ToList();
                calls.AddRange(started);
                foreach (var call in started)
                {
                    Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
                }
            }

            Assert.True(setup.Relay.Connections.Count >= 2, $"{setup.Relay.Connections.Count} connection(s) to the destination for {calls.Count} calls held at once");
        }
        finally
        {
            calls.ForEach(call => call.Dispose());
        }
    }

    [Fact]
    public async Task False_CallsBeyondTheStreamLimitWaitOnTheOneConnection()
    {
        await using var setup = await Setup.StartAsync(multipleConnections: false, LlrpModes.RawPooled);
        var first = Enumerable.Range(0, StreamLimit).Select(i => setup.Client.Hold(new EchoMessage { Text = $"first{i}" })).ToList();
        List<AsyncServerStreamingCall<EchoMessage>> waiting = [];
        try
        {
            foreach (var call in first)
            {
                Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
            }

            waiting.AddRange(Enumerable.Range(0, StreamLimit).Select(i => setup.Client.Hold(new EchoMessage { Text = $"waiting{i}" })));
            await Deadline.UntilAsync(() => setup.Destination.ActiveRequests == 2 * StreamLimit, "The waiting calls reaching the proxy's client");
            first.ForEach(call => call.Dispose());
            foreach (var call in waiting)
            {
                Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None));
            }

            Assert.Single(setup.Relay.Connections);
        }
        finally
        {
            first.ForEach(call => call.Dispose());
            waiting.ForEach(call => call.Dispose());
        }
    }

    /// <summary>The bundled origin on h2c with <see cref="StreamLimit"/> streams per connection, a relay in front of it, the proxy, a client.</summary>
    private sealed class Setup : IAsyncDisposable
    {
        private readonly HostedApp _origin;
        private readonly HostedApp _proxy;
        private readonly GrpcChannel _channel;

        private Setup(HostedApp origin, TcpRelay relay, HostedApp proxy)
        {
            _origin = origin;
            Relay = relay;
            _proxy = proxy;
            _channel = GrpcChannel.ForAddress(proxy.Url);
            Client = new Echo.EchoClient(_channel);
        }

        public TcpRelay Relay { get; }

        public Echo.EchoClient Client { get; }

        /// <summary>The cluster's one destination, whose requests in flight the proxy counts from routing to the response's end.</summary>
        public Destination Destination => _proxy.Services.GetRequiredService<Router>().Current.Clusters.Single().Destinations.Current.Single();

        public static async Task<Setup> StartAsync(bool multipleConnections, string mode)
        {
            var origin = await HostedApp.StartAsync(DownstreamHost.Build(
                ["--urls=http://127.0.0.1:0", "--Kestrel:EndpointDefaults:Protocols=Http2", $"--http2MaxStreams={StreamLimit}"]));
            var relay = TcpRelay.Start(origin.Port);
            try
            {
                var proxy = await HostedApp.StartAsync(ProxyHost.Build(
                [
                    "--urls=http://127.0.0.1:0",
                    "--ReverseProxy:Routes:grpc:ClusterId=echo",
                    "--ReverseProxy:Routes:grpc:Match:Path={**any}",
                    $"--ReverseProxy:Clusters:echo:Destinations:origin:Address=http://127.0.0.1:{relay.Port}",
                    "--ReverseProxy:Clusters:echo:HttpRequest:Version=2",
                    "--ReverseProxy:Clusters:echo:HttpRequest:VersionPolicy=RequestVersionExact",
                    $"--ReverseProxy:Clusters:echo:HttpClient:EnableMultipleHttp2Connections={multipleConnections}",
                    .. LlrpModes.Settings(mode).Select(setting => "--" + setting),
                ]));
                return new Setup(origin, relay, proxy);
            }
            catch
            {
                await relay.DisposeAsync();
                await origin.DisposeAsync();
                throw;
            }
        }

        public async ValueTask DisposeAsync()
        {
            _channel.Dispose();
            await _proxy.DisposeAsync();
            await Relay.DisposeAsync();
            await _origin.DisposeAsync();
        }
    }
}
