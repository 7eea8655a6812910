using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration;

/// <summary>Reads the <c>limits.http2.*</c> keys; a value out of its range ends the start naming the key and the range.</summary>
internal static class Http2SettingsReader
{
    public static Http2Settings Read(IConfiguration configuration)
    {
        var defaults = Http2Settings.Default;
        return new Http2Settings(
            Read(configuration, ConfigurationKeys.Http2MaxConcurrentStreams, defaults.MaxConcurrentStreams, 1, int.MaxValue),
            Read(configuration, ConfigurationKeys.Http2MaxHeaderFieldSize, defaults.MaxHeaderFieldSize, 1, int.MaxValue),
            Read(configuration, ConfigurationKeys.Http2MaxFrameSize, defaults.MaxFrameSize, Http2Settings.MinFrameSize, Http2Settings.MaxFrameSizeLimit),
            Read(configuration, ConfigurationKeys.Http2InitialConnectionWindowSize, defaults.InitialConnectionWindowSize, Http2Settings.MinWindowSize, int.MaxValue),
            Read(configuration, ConfigurationKeys.Http2InitialStreamWindowSize, defaults.InitialStreamWindowSize, Http2Settings.MinWindowSize, int.MaxValue));
    }

    private static int Read(IConfiguration configuration, string key, int defaultValue, int minimum, int maximum)
    {
        var value = configuration[key] ?? configuration[key.Replace('.', ':')];
        if (string.IsNullOrWhiteSpace(value))
        {
            return defaultValue;
        }

        return int.TryParse(value.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var result) && result >= minimum && result <= maximum
            ? result
            : throw new ProxyConfigurationException(key, value, $"an integer from {minimum} to {maximum}");
    }
}
