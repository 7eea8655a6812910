using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace LLRP.Downstream;

/// <summary>
/// <c>delayMs</c>: how long the origin waits before it dispatches every request (default 0), so one origin can play a slow
/// destination behind a load balancer in the benchmarks. A <c>?d=ms</c> on the request waits on top of it.
/// </summary>
internal static class ResponseDelaySetting
{
    public const string Key = "delayMs";

    /// <summary>An hour: longer than any client here waits.</summary>
    public const int MaxMilliseconds = 3_600_000;

    /// <exception cref="ArgumentException">The value is not an integer in [0, <see cref="MaxMilliseconds"/>].</exception>
    public static TimeSpan Read(IConfiguration configuration)
    {
        var text = configuration[Key];
        if (string.IsNullOrEmpty(text))
        {
            return TimeSpan.Zero;
        }

        return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var milliseconds) && milliseconds <= MaxMilliseconds
            ? TimeSpan.FromMilliseconds(milliseconds)
            : throw new ArgumentException($"Invalid configuration: '{Key}' = '{text}'. Allowed: an integer in [0, {MaxMilliseconds}].");
    }
}
