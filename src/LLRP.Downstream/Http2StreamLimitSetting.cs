using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace LLRP.Downstream;

/// <summary>
/// <c>http2MaxStreams</c>: the concurrent streams the origin allows per HTTP/2 connection (its
/// SETTINGS_MAX_CONCURRENT_STREAMS, Kestrel's <c>Limits.Http2.MaxStreamsPerConnection</c>; default Kestrel's 100), so one
/// origin can play a destination whose stream limit caps a single connection (seed 002's scaling test).
/// </summary>
internal static class Http2StreamLimitSetting
{
    public const string Key = "http2MaxStreams";

    /// <exception cref="ArgumentException">The value is not a positive integer.</exception>
    public static int? Read(IConfiguration configuration)
    {
        var text = configuration[Key];
        if (string.IsNullOrEmpty(text))
        {
            return null;
        }

        return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var streams) && streams > 0
            ? streams
            : throw new ArgumentException($"Invalid configuration: '{Key}' = '{text}'. Allowed: a positive integer.");
    }
}
