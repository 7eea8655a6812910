using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using System.Text;
using BenchmarkDotNet.Attributes;
using System.Diagnostics.Metrics;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Microbenchmarks.InMemory;
using LLRP.Proxy;
using LLRP.Routing;
using LLRP.Upstream.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting.Internal;
using Microsoft.Extensions.Logging.Abstractions;

namespace LLRP.Microbenchmarks;

/// <summary>
/// The whole raw path in memory, through the client session every mode shares and raw mode's forwarder: a request
/// written by the client is parsed, re-emitted upstream, answered by the origin, parsed and re-emitted to the client.
/// </summary>
[MemoryDiagnoser]
public class RoundTripBenchmarks
{
    private const int RoundTrips = 100;
    private DuplexPipe _client = null!;
    private int _responseLength;
    private Task _connection = null!;
    private AccessLogWriter? _accessLog;

    /// <summary>True: pipes complete inline (the proxy's own cost). False: continuations hop to the thread pool, as with sockets.</summary>
    [Params(true, false)]
    public bool Inline { get; set; }

    /// <summary>True: the access log is on, in the combined format, written to <c>/dev/null</c> by its background writer.</summary>
    [Params(false, true)]
    public bool AccessLog { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var downstream = DestinationEndpoint.TryParse("http://127.0.0.1:8081")!;
        var unrouted = new ProxyOptions { Destinations = [new DestinationOptions(downstream, 1)], Routing = RoutingOptions.Unread };
        var options = unrouted with { Routing = RoutingOptionsReader.Implicit(unrouted.Destinations, unrouted) };
        var metrics = new ProxyMetrics(new ServiceCollection().AddMetrics().BuildServiceProvider().GetRequiredService<IMeterFactory>());
        if (AccessLog)
        {
            _accessLog = new AccessLogWriter("/dev/null", options.AccessLogBufferSize, metrics, NullLogger.Instance);
            _accessLog.StartAsync(CancellationToken.None).GetAwaiter().GetResult();
        }

        var (clientSide, proxySide) = DuplexPipe.CreatePair(Inline);
        _client = clientSide;
        var services = new ClientSessionServices(
            options,
            new SocketsForwarderFactory(options, new InMemoryOrigin(Messages.Response, Inline), pool: null),
            metrics,
            new ClientConnectionTracker(new ApplicationLifetime(NullLogger<ApplicationLifetime>.Instance)),
            new FailureLog(NullLogger.Instance),
            new Router(options.Routing, metrics),
            _accessLog);
        var connection = new ClientSession(new InMemoryConnection(proxySide), services);
        _connection = connection.RunAsync();
        _responseLength = Encoding.ASCII.GetByteCount("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: Sun, 22 Nov 2026 06:00:00 GMT\r\nServer: Kestrel\r\nContent-Length: 10\r\n\r\nabcdefghij");
        RoundTrip().GetAwaiter().GetResult();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _client.Output.Complete();
        _connection.GetAwaiter().GetResult();
        _accessLog?.StopAsync(CancellationToken.None).GetAwaiter().GetResult();
    }

    [Benchmark(OperationsPerInvoke = RoundTrips)]
    public async Task RoundTrip()
    {
        for (var i = 0; i < RoundTrips; i++)
        {
            _client.Output.Write(Messages.WrkRequest);
            await _client.Output.FlushAsync();
            await ReadResponseAsync(_client.Input);
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask ReadResponseAsync(PipeReader input)
    {
        while (true)
        {
            var result = await input.ReadAsync();
            if (result.Buffer.Length >= _responseLength)
            {
                input.AdvanceTo(result.Buffer.GetPosition(_responseLength));
                return;
            }

            if (result.IsCompleted)
            {
                throw new InvalidOperationException("The proxy closed the connection.");
            }

            input.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }
}
