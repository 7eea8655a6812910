using LLRP.Hosting;
using LLRP.Tests.Configuration;

namespace LLRP.Tests.Hosting;

/// <summary>The start-up report's line of keys <c>proxyProtocol.*</c>: whether the urls read the header, from which networks, within how long.</summary>
public sealed class StartupReportProxyProtocolTests
{
    [Fact]
    public void Describe_Off()
    {
        var report = StartupReport.Describe(ConfiguredOptions.Read(), ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Contains("  proxyProtocol.accept=false proxyProtocol.trustedNetworks=(none) proxyProtocol.timeoutMs=5000", report, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_Accepting_TheNetworksAsCidrs()
    {
        var options = ConfiguredOptions.Read(("proxyProtocol.accept", "true"), ("proxyProtocol.trustedNetworks", "10.0.0.0/8;127.0.0.1;fd00::/8"), ("proxyProtocol.timeoutMs", "250"));

        var report = StartupReport.Describe(options, ["http://127.0.0.1:8080"], [], [], transportQueues: 2);

        Assert.Contains("  proxyProtocol.accept=true proxyProtocol.trustedNetworks=10.0.0.0/8;127.0.0.1/32;fd00::/8 proxyProtocol.timeoutMs=250", report, StringComparison.Ordinal);
    }
}
