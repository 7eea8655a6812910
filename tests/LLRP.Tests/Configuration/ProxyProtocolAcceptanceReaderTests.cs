using System.Net;
using LLRP.Configuration;

namespace LLRP.Tests.Configuration;

/// <summary>Keys <c>proxyProtocol.accept</c>, <c>proxyProtocol.trustedNetworks</c> and <c>proxyProtocol.timeoutMs</c> of the proxy's urls.</summary>
public sealed class ProxyProtocolAcceptanceReaderTests
{
    [Fact]
    public void Read_NotGiven_NoneAccepted()
        => Assert.Null(ConfiguredOptions.Read().AcceptProxyProtocol);

    [Fact]
    public void Read_Accept_NetworksAndTimeout()
    {
        var acceptance = ConfiguredOptions.Read(
            ("proxyProtocol.accept", "true"),
            ("proxyProtocol.trustedNetworks", "10.0.0.0/8; 127.0.0.1 ;fd00::/8"),
            ("proxyProtocol.timeoutMs", "1500")).AcceptProxyProtocol;

        Assert.NotNull(acceptance);
        Assert.Equal([IPNetwork.Parse("10.0.0.0/8"), IPNetwork.Parse("127.0.0.1/32"), IPNetwork.Parse("fd00::/8")], acceptance.TrustedNetworks);
        Assert.Equal(TimeSpan.FromMilliseconds(1500), acceptance.Timeout);
    }

    [Fact]
    public void Read_AcceptWithoutTimeout_TheTcpRoutesDefault()
        => Assert.Equal(TimeSpan.FromSeconds(5), ConfiguredOptions.Read(("proxyProtocol.accept", "1"), ("proxyProtocol.trustedNetworks", "127.0.0.0/8")).AcceptProxyProtocol!.Timeout);

    /// <summary>The nested form appsettings.json and the environment's <c>proxyProtocol__accept</c> give.</summary>
    [Fact]
    public void Read_SectionForm()
        => Assert.NotNull(ConfiguredOptions.Read(("proxyProtocol:accept", "true"), ("proxyProtocol:trustedNetworks", "::1")).AcceptProxyProtocol);

    [Fact]
    public void Read_AcceptWithoutNetworks_RefusedSayingTheyAreRequired()
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("proxyProtocol.accept", "true")));

        Assert.Equal("proxyProtocol.trustedNetworks", e.Key);
        Assert.Contains("at least one with proxyProtocol.accept=true", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_NetworksWithoutAccept_Refused()
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("proxyProtocol.trustedNetworks", "10.0.0.0/8")));

        Assert.Equal("proxyProtocol.trustedNetworks", e.Key);
        Assert.Contains("proxyProtocol.accept=true", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("proxyProtocol.trustedNetworks", "10.0.0.1/8")]
    [InlineData("proxyProtocol.trustedNetworks", "10.0.0.0/33")]
    [InlineData("proxyProtocol.trustedNetworks", "10.0.0.0/8,127.0.0.1")]
    [InlineData("proxyProtocol.trustedNetworks", "localhost")]
    [InlineData("proxyProtocol.timeoutMs", "0")]
    [InlineData("proxyProtocol.timeoutMs", "5s")]
    public void Read_InvalidValue_ThrowsNamingKeyAndValue(string key, string value)
    {
        (string, string)[] settings = key == "proxyProtocol.trustedNetworks"
            ? [("proxyProtocol.accept", "true"), (key, value)]
            : [("proxyProtocol.accept", "true"), ("proxyProtocol.trustedNetworks", "127.0.0.0/8"), (key, value)];
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(settings));

        Assert.Equal(key, e.Key);
        Assert.Contains($"'{key}' = '{value}'", e.Message, StringComparison.Ordinal);
    }
}
