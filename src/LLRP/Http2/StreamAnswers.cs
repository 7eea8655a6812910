using System.Globalization;
using System.Text;
using LLRP.Diagnostics;
using LLRP.Routing;
using Microsoft.AspNetCore.Http;

namespace LLRP.Http2;

/// <summary>
/// The answers the HTTP/2 front end makes itself, before any response started: the status <see cref="ErrorPolicy"/>
/// gives, with a short text body. A forwarding failure of a gRPC call (<c>content-type: application/grpc…</c>) is
/// answered as gRPC clients read one: a trailers-only response with <c>grpc-status</c> 14 (UNAVAILABLE) and the
/// reason in <c>grpc-message</c> (gRPC over HTTP/2, "Responses").
/// </summary>
internal static class StreamAnswers
{
    /// <summary>gRPC's UNAVAILABLE.</summary>
    public const string GrpcUnavailable = "14";

    public static Task ForwardingFailedAsync(HttpContext context, ForwarderError error, int retryAfterSeconds)
    {
        var status = ErrorPolicy.StatusCode(error);
        var text = $"{status} {error}";
        var response = context.Response;
        if (IsGrpc(context.Request))
        {
            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = context.Request.ContentType;
            response.Headers["grpc-status"] = GrpcUnavailable;
            response.Headers["grpc-message"] = "LLRP: " + text;
            return Task.CompletedTask;
        }

        if (status == StatusCodes.Status503ServiceUnavailable)
        {
            response.Headers.RetryAfter = retryAfterSeconds.ToString(CultureInfo.InvariantCulture);
        }

        return AnswerAsync(context, status, text);
    }

    public static Task RejectedAsync(HttpContext context, RejectionReason reason)
        => AnswerAsync(context, ErrorPolicy.StatusCode(reason), reason.Describe());

    /// <summary>CONNECT, extended (RFC 8441) or not (RFC 9113 §8.5): LLRP tunnels nothing over HTTP/2.</summary>
    public static Task ConnectRefusedAsync(HttpContext context)
        => AnswerAsync(context, StatusCodes.Status501NotImplemented, "CONNECT is not forwarded over HTTP/2");

    private static Task AnswerAsync(HttpContext context, int status, string text)
    {
        var body = Encoding.UTF8.GetBytes(text + "\n");
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/plain";
        context.Response.ContentLength = body.Length;
        return context.Response.Body.WriteAsync(body).AsTask();
    }

    private static bool IsGrpc(HttpRequest request)
        => request.ContentType is { } type && type.StartsWith("application/grpc", StringComparison.OrdinalIgnoreCase);
}
