using System.Diagnostics;
using System.Text;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Routing;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Http2;

/// <summary>
/// The access log line of one HTTP/2 request stream, made only when the log is on: the HTTP/1.1 front end's fields and
/// format (<see cref="AccessLogLine"/>), the request shown as <c>METHOD target HTTP/2</c>. The front end hands it the
/// routing and the forwarder as the request reaches them; <see cref="Write"/> runs once the stream's exchange has ended.
/// </summary>
internal sealed class StreamAccessLog(AccessLogWriter writer, bool json)
{
    /// <summary>The request's routing, once it has one: the route and destination it chose.</summary>
    public ClientRouting? Routing { get; set; }

    /// <summary>The request's forwarder, once it has one: the destination's status, timing and the body bytes relayed.</summary>
    public StreamForwarder? Forwarder { get; set; }

    /// <param name="context">The request stream, its response sent or reset.</param>
    /// <param name="client">The client's address, as <c>X-Forwarded-For</c> gets it.</param>
    /// <param name="startTimestamp">When the front end took the stream.</param>
    public void Write(HttpContext context, byte[] client, long startTimestamp)
    {
        var request = context.Request;
        var line = $"{request.Method} {context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget} HTTP/2";
        var forwarded = Forwarder is { Status: > 0 } forwarder ? forwarder : null;
        new AccessLogLine(writer, json).Write(new AccessLogRecord
        {
            Client = client,
            Time = DateTime.UtcNow,
            Request = Encoding.Latin1.GetBytes(line),
            Status = context.Response.StatusCode,
            BodyBytes = forwarded?.BodyBytes ?? context.Response.ContentLength ?? 0,
            Referer = Encoding.Latin1.GetBytes(request.Headers.Referer.ToString()),
            UserAgent = Encoding.Latin1.GetBytes(request.Headers.UserAgent.ToString()),
            Route = Routing?.Route?.Id,
            Destination = Routing?.Destination?.Name,
            UpstreamStatus = forwarded?.Status ?? 0,
            RequestMs = (long)Stopwatch.GetElapsedTime(startTimestamp).TotalMilliseconds,
            UpstreamMs = forwarded?.UpstreamMilliseconds ?? -1,
        });
    }
}
