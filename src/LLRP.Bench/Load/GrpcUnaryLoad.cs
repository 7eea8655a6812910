using System.Diagnostics;
using System.Globalization;
using System.Net;
using Grpc.Core;
using Grpc.Net.Client;
using LLRP.Downstream.Grpc;

namespace LLRP.Bench.Load;

/// <summary>
/// The gRPC unary load (Grpc.Net.Client): <see cref="LoadShape.Connections"/> channels to <c>http://127.0.0.1:port</c>, each
/// over its own <see cref="SocketsHttpHandler"/> held to one HTTP/2 connection (h2c with prior knowledge), each with
/// <see cref="LoadShape.StreamsPerConnection"/> callers that call the bundled origin's <c>Echo.Unary</c> one after another
/// with the same request message (<see cref="GrpcEchoRequest"/>) until the time is up. It runs inside the runner, so on the load CPU when bench.sh pins
/// the runner there; nothing per call is allocated by the load beyond what the client needs. A call in flight at the end
/// is waited for, at most <see cref="_grace"/>.
/// </summary>
public static class GrpcUnaryLoad
{
    private static readonly TimeSpan _grace = TimeSpan.FromSeconds(10);

    public static async Task<(WrkResult? Result, string Output)> RunAsync(int port, LoadShape shape, int seconds, CancellationToken cancellationToken)
    {
        var callers = shape.Connections * shape.StreamsPerConnection;
        var channels = Enumerable.Range(0, shape.Connections).Select(_ => GrpcChannel.ForAddress($"http://127.0.0.1:{port}", new GrpcChannelOptions
        {
            HttpHandler = new SocketsHttpHandler
            {
                EnableMultipleHttp2Connections = false,
                UseProxy = false,
                AutomaticDecompression = DecompressionMethods.None,
                ConnectTimeout = TimeSpan.FromSeconds(5),
            },
            DisposeHttpClient = true,
        })).ToArray();
        try
        {
            var clients = channels.Select(channel => new Echo.EchoClient(channel)).ToArray();
            var end = Stopwatch.GetTimestamp() + (long)(seconds * (double)Stopwatch.Frequency);
            using var abort = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            abort.CancelAfter(TimeSpan.FromSeconds(seconds) + _grace);
            var tallies = Enumerable.Range(0, callers).Select(_ => new GrpcCallTally(seconds * 4096)).ToArray();
            var clock = Stopwatch.StartNew();
            await Task.WhenAll(tallies.Select((tally, i) => Task.Run(() => CallAsync(clients[i % clients.Length], tally, end, abort.Token), CancellationToken.None)));
            var elapsed = clock.Elapsed.TotalSeconds;
            cancellationToken.ThrowIfCancellationRequested();

            var result = GrpcCallTally.Summarize(tallies, seconds, Stopwatch.Frequency);
            var firstError = tallies.Select(t => t.FirstError).FirstOrDefault(e => e is not null);
            var output = string.Create(CultureInfo.InvariantCulture, $"""
                gRPC unary Echo to http://127.0.0.1:{port}: {shape.Connections} channels × {shape.StreamsPerConnection} calls in flight, {seconds} s ({elapsed:F2} s with the last calls)
                calls: {result.Requests} with a status ({result.RequestsPerSecond:F1}/s), {result.Non2xxResponses} not OK, {result.SocketErrors} without a status
                latency µs: mean {result.LatencyMeanMicroseconds:F0}, p50 {result.LatencyP50Microseconds:F0}, p90 {result.LatencyP90Microseconds:F0}, p99 {result.LatencyP99Microseconds:F0}, max {result.LatencyMaxMicroseconds:F0}
                {(firstError is null ? "" : "first failure: " + firstError)}
                """);
            return (result, output);
        }
        finally
        {
            foreach (var channel in channels)
            {
                channel.Dispose();
            }
        }
    }

    /// <summary>
    /// One caller: a call at a time until <paramref name="end"/> (a <see cref="Stopwatch"/> timestamp). A status received
    /// from the server (or the proxy) ends a call with a status; a status the client made up from an exception (its
    /// <see cref="Status.DebugException"/>: no connection, a reset stream, the run's abort) ends it without one.
    /// </summary>
    private static async Task CallAsync(Echo.EchoClient client, GrpcCallTally tally, long end, CancellationToken abort)
    {
        var options = new CallOptions(cancellationToken: abort);
        while (Stopwatch.GetTimestamp() < end && !abort.IsCancellationRequested)
        {
            var start = Stopwatch.GetTimestamp();
            try
            {
                using var call = client.UnaryAsync(GrpcEchoRequest.Message, options);
                await call.ResponseAsync;
                tally.LatencyTicks.Add(Stopwatch.GetTimestamp() - start);
            }
            catch (RpcException e) when (e.Status.DebugException is null)
            {
                tally.LatencyTicks.Add(Stopwatch.GetTimestamp() - start);
                tally.FailedStatus++;
                tally.FirstError ??= e.Status.ToString();
            }
            catch (RpcException e)
            {
                tally.FailedTransport++;
                tally.FirstError ??= e.Status.ToString();
            }
        }
    }
}
