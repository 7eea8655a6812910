using LLRP.Configuration;

namespace LLRP.Tests.Configuration;

/// <summary>The <c>limits.http2.*</c> keys: Kestrel's defaults, values taken, and every value out of range refused naming the key.</summary>
public sealed class Http2SettingsReaderTests
{
    [Fact]
    public void Read_Unset_KestrelDefaults()
        => Assert.Equal(new Http2Settings(100, 16384, 16384, 1024 * 1024, 768 * 1024), ConfiguredOptions.Read(("downstream", "http://a.test")).Http2);

    [Fact]
    public void Read_EveryKey_Taken()
    {
        var options = ConfiguredOptions.Read(
            ("downstream", "http://a.test"),
            (ConfigurationKeys.Http2MaxConcurrentStreams, "8"),
            (ConfigurationKeys.Http2MaxHeaderFieldSize, "4096"),
            (ConfigurationKeys.Http2MaxFrameSize, "32768"),
            (ConfigurationKeys.Http2InitialConnectionWindowSize, "2097152"),
            (ConfigurationKeys.Http2InitialStreamWindowSize, "65535"));

        Assert.Equal(new Http2Settings(8, 4096, 32768, 2097152, 65535), options.Http2);
    }

    // RFC 9113 §4.2: the frame size limit lies from 2^14 to 2^24-1; §6.9.2: no window below the initial 65,535.
    [Theory]
    [InlineData(ConfigurationKeys.Http2MaxConcurrentStreams, "0")]
    [InlineData(ConfigurationKeys.Http2MaxConcurrentStreams, "many")]
    [InlineData(ConfigurationKeys.Http2MaxHeaderFieldSize, "-1")]
    [InlineData(ConfigurationKeys.Http2MaxFrameSize, "16383")]
    [InlineData(ConfigurationKeys.Http2MaxFrameSize, "16777216")]
    [InlineData(ConfigurationKeys.Http2InitialConnectionWindowSize, "65534")]
    [InlineData(ConfigurationKeys.Http2InitialStreamWindowSize, "2147483648")]
    public void Read_OutOfRange_RefusedNamingKeyAndRange(string key, string value)
    {
        var refused = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("downstream", "http://a.test"), (key, value)));

        Assert.Equal(key, refused.Key);
        Assert.Contains("an integer from ", refused.Message, StringComparison.Ordinal);
        Assert.Contains(value, refused.Message, StringComparison.Ordinal);
    }
}
