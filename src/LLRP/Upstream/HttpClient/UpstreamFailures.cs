using LLRP.Diagnostics;

namespace LLRP.Upstream.HttpClient;

/// <summary>Classifies what <c>SendAsync</c> threw into the <see cref="ForwarderError"/> that raw mode reports for the same failure.</summary>
internal static class UpstreamFailures
{
    public static ForwarderError Classify(Exception exception) => exception switch
    {
        OperationCanceledException { InnerException: TimeoutException } => ForwarderError.ConnectTimeout,
        OperationCanceledException => ForwarderError.ResponseTimeout,
        HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError or HttpRequestError.NameResolutionError } => ForwarderError.ConnectFailed,
        HttpRequestException { HttpRequestError: HttpRequestError.SecureConnectionError } => ForwarderError.TlsHandshakeFailed,
        HttpRequestException { HttpRequestError: HttpRequestError.ResponseEnded } => ForwarderError.UpstreamClosed,
        HttpRequestException { HttpRequestError: HttpRequestError.InvalidResponse or HttpRequestError.ConfigurationLimitExceeded } => ForwarderError.InvalidResponse,
        _ => ForwarderError.RequestFailed,
    };
}
