using LLRP.Diagnostics;
using LLRP.Upstream.HttpClient;
using YarpError = Yarp.ReverseProxy.Forwarder.ForwarderError;

namespace LLRP.Upstream.Yarp;

/// <summary>YARP's forwarding errors as the <see cref="ForwarderError"/> raw mode reports for the same failure.</summary>
internal static class YarpErrors
{
    /// <param name="exception">What YARP caught, from its error feature.</param>
    public static ForwarderError Map(YarpError error, Exception? exception) => error switch
    {
        YarpError.Request or YarpError.RequestCreation or YarpError.RequestTimedOut when exception is not null
            => UpstreamFailures.Classify(exception),
        YarpError.RequestTimedOut => ForwarderError.ResponseTimeout,
        YarpError.RequestCanceled or YarpError.RequestBodyCanceled or YarpError.ResponseBodyClient => ForwarderError.ClientAborted,
        YarpError.ResponseHeaders => ForwarderError.InvalidResponse,
        YarpError.ResponseBodyDestination or YarpError.ResponseBodyCanceled => ForwarderError.ResponseBodyFailed,
        _ => ForwarderError.RequestFailed,
    };

    /// <summary>Errors about the request body that YARP reports after the response was copied in full.</summary>
    public static bool IsAfterResponse(YarpError error)
        => error is YarpError.RequestBodyClient or YarpError.RequestBodyDestination or YarpError.RequestBodyCanceled;
}
