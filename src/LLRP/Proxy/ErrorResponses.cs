using System.Text;
using LLRP.Diagnostics;
using LLRP.Routing;

namespace LLRP.Proxy;

/// <summary>The responses the proxy writes itself, built once: a status, a one-line plain-text explanation, <c>Connection: close</c>.</summary>
internal static class ErrorResponses
{
    private static readonly byte[][] ByReason = Enum.GetValues<RejectionReason>()
        .Select(reason => Build(ErrorPolicy.StatusCode(reason), reason.Describe()))
        .ToArray();

    private static readonly byte[] BadGateway = Build(ForwarderError.ConnectFailed, "the destination could not be reached or sent an invalid response");
    private static readonly byte[] GatewayTimeout = Build(ForwarderError.ConnectTimeout, "the destination did not answer in time");
    private static readonly byte[] RequestTimeoutResponse = Build(408, "the request head did not arrive in time");
    private static readonly byte[] UpstreamClosed = Build(ForwarderError.UpstreamClosed, "the destination closed the connection without a response");
    private static readonly byte[] TlsHandshakeFailed = Build(ForwarderError.TlsHandshakeFailed, "the TLS handshake with the destination failed");
    private static readonly byte[] NoRouteResponse = Build(ForwarderError.NoRoute, "no route matches the request");
    private static readonly byte[] NoRouteKeepAlive = Build(ErrorPolicy.StatusCode(ForwarderError.NoRoute), "no route matches the request", close: false);
    private static readonly byte[] AffinityUnavailable = Build(ForwarderError.AffinityDestinationUnavailable, "the destination this session is bound to is not available");
    private static readonly byte[] TooManyConnectionsResponse = Build(503, "the proxy is at its limit of client connections", retryAfterSeconds: 1);
    private static readonly byte[] DestinationBusy = Build(ErrorPolicy.StatusCode(ForwarderError.QueueFull), "the destination is at its limit of requests in flight", retryAfterSeconds: 1);
    private static readonly byte[] PlainHttpOnTlsPortResponse = Build(400, "this port speaks TLS: send the request over https");

    /// <summary>503 for no available destination, by <c>Retry-After</c> seconds (1 to <see cref="MaxRetryAfterSeconds"/>), built on first use.</summary>
    private static readonly byte[]?[] NoDestination = new byte[]?[MaxRetryAfterSeconds + 1];

    /// <summary>The largest <c>Retry-After</c> the proxy sends.</summary>
    public const int MaxRetryAfterSeconds = 3600;

    /// <summary>408: the request head did not arrive within the request headers timeout.</summary>
    public static ReadOnlySpan<byte> RequestTimeout => RequestTimeoutResponse;

    /// <summary>503 to a client connection over <c>limits.maxClientConnections</c>.</summary>
    public static ReadOnlyMemory<byte> TooManyConnections => TooManyConnectionsResponse;

    /// <summary>The answer to plain HTTP sent to an <c>https</c> listener.</summary>
    public static ReadOnlyMemory<byte> PlainHttpOnTlsPort => PlainHttpOnTlsPortResponse;

    public static ReadOnlySpan<byte> For(RejectionReason reason) => ByReason[(int)reason];

    /// <summary>
    /// The response for a forwarding failure before the response started; empty when none is owed, and for
    /// <see cref="ForwarderError.NoHealthyDestination"/>, whose response says when to retry (<see cref="NoHealthyDestination"/>).
    /// </summary>
    public static ReadOnlySpan<byte> For(ForwarderError error) => error switch
    {
        ForwarderError.ConnectTimeout or ForwarderError.ResponseTimeout => GatewayTimeout,
        ForwarderError.UpstreamClosed => UpstreamClosed,
        ForwarderError.TlsHandshakeFailed => TlsHandshakeFailed,
        ForwarderError.ConnectFailed or ForwarderError.RequestFailed or ForwarderError.InvalidResponse => BadGateway,
        ForwarderError.QueueFull or ForwarderError.QueueTimeout => DestinationBusy,
        ForwarderError.NoRoute => NoRouteResponse,
        ForwarderError.AffinityDestinationUnavailable => AffinityUnavailable,
        ForwarderError.None or ForwarderError.ClientAborted or ForwarderError.ResponseBodyFailed or ForwarderError.NoHealthyDestination => default,
    };

    /// <summary>404 to a request no route takes, leaving the connection open for the next one.</summary>
    public static ReadOnlySpan<byte> NoRoute => NoRouteKeepAlive;

    /// <summary>503 when every destination is ejected or probed down, with <c>Retry-After</c> (RFC 9110 §10.2.3) in seconds.</summary>
    public static ReadOnlySpan<byte> NoHealthyDestination(int retryAfterSeconds)
    {
        var seconds = Math.Clamp(retryAfterSeconds, 1, MaxRetryAfterSeconds);
        return NoDestination[seconds] ??= Build(ErrorPolicy.StatusCode(ForwarderError.NoHealthyDestination), "no destination is available", seconds);
    }

    private static byte[] Build(ForwarderError error, string message) => Build(ErrorPolicy.StatusCode(error), message);

    private static byte[] Build(int status, string message, int? retryAfterSeconds = null, bool close = true)
    {
        var body = $"{status} {ReasonPhrase(status)}: {message}\n";
        var retryAfter = retryAfterSeconds is { } seconds ? $"Retry-After: {seconds}\r\n" : "";
        return Encoding.ASCII.GetBytes(
            $"HTTP/1.1 {status} {ReasonPhrase(status)}\r\nContent-Type: text/plain\r\nContent-Length: {body.Length}\r\n{retryAfter}{(close ? "Connection: close\r\n" : "")}\r\n{body}");
    }

    private static string ReasonPhrase(int status) => status switch
    {
        400 => "Bad Request",
        404 => "Not Found",
        408 => "Request Timeout",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    };
}
