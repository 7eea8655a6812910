using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>The origin's terminal middleware: an exact, case-sensitive match on the path picks the endpoint.</summary>
internal static class RequestDispatcher
{
    public static Task HandleAsync(HttpContext context) => context.Request.Path.Value switch
    {
        "/echo" => EchoEndpoint.HandleAsync(context),
        "/headers" => HeadersEndpoint.HandleAsync(context),
        "/sink" => SinkEndpoint.HandleAsync(context),
        "/chunked" => ChunkedEndpoint.HandleAsync(context),
        "/status" => StatusEndpoint.HandleAsync(context),
        "/close" => CloseEndpoint.HandleAsync(context),
        "/early" => EarlyEndpoint.HandleAsync(context),
        "/ws" => WebSocketEchoEndpoint.HandleAsync(context),
        _ => PatternEndpoint.HandleAsync(context),
    };
}
