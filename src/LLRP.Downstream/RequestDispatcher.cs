using LLRP.Downstream.Grpc;
using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// The origin's terminal middleware: counts every request it receives (<see cref="RequestCountEndpoint"/> answers the
/// count at once), waits <paramref name="delay"/> (<see cref="ResponseDelaySetting"/>), then an exact, case-sensitive
/// match on the path picks the endpoint.
/// </summary>
/// <param name="delay">Waited before every endpoint but <see cref="RequestCountEndpoint"/>'s; zero for none.</param>
/// <param name="unaryCalls">The gRPC unary calls answered with status OK, read at <see cref="RequestCountEndpoint.UnaryOkPath"/>.</param>
internal sealed class RequestDispatcher(TimeSpan delay, UnaryCallCounter unaryCalls)
{
    private long _received;

    public Task HandleAsync(HttpContext context)
    {
        var received = Interlocked.Increment(ref _received);
        if (context.Request.Path.Value == RequestCountEndpoint.Path)
        {
            return RequestCountEndpoint.Write(context.Response, received);
        }

        if (context.Request.Path.Value == RequestCountEndpoint.UnaryOkPath)
        {
            return RequestCountEndpoint.Write(context.Response, unaryCalls.Answered);
        }

        return delay == TimeSpan.Zero ? DispatchAsync(context) : DispatchDelayedAsync(context);
    }

    private async Task DispatchDelayedAsync(HttpContext context)
    {
        await MinimumDelay.WaitAsync(delay);
        await DispatchAsync(context);
    }

    private static Task DispatchAsync(HttpContext context) => context.Request.Path.Value switch
    {
        "/echo" => EchoEndpoint.HandleAsync(context),
        "/headers" => HeadersEndpoint.HandleAsync(context),
        "/sink" => SinkEndpoint.HandleAsync(context),
        "/chunked" => ChunkedEndpoint.HandleAsync(context),
        "/status" => StatusEndpoint.HandleAsync(context),
        "/close" => CloseEndpoint.HandleAsync(context),
        "/early" => EarlyEndpoint.HandleAsync(context),
        "/trailers" => TrailersEndpoint.HandleAsync(context),
        "/ws" => WebSocketEchoEndpoint.HandleAsync(context),
        _ => PatternEndpoint.HandleAsync(context),
    };
}
