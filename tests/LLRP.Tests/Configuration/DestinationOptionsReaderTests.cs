using LLRP.Configuration;

namespace LLRP.Tests.Configuration;

/// <summary>The keys of several destinations: weights, balancing, health, retries, limits, the admin listener.</summary>
public sealed class DestinationOptionsReaderTests
{
    [Fact]
    public void Downstream_WeightsFollowABar()
    {
        var options = ConfiguredOptions.Read(("downstream", "http://a.test|w=3; http://b.test/p"), ("balancing", "weightedRoundRobin"));

        Assert.Equal(["http://a.test/ 3", "http://b.test/p 1"], options.Destinations.Select(d => $"{d.Endpoint} {d.Weight}"));
        Assert.Equal(BalancingPolicy.WeightedRoundRobin, options.Balancing);
    }

    [Theory]
    [InlineData("http://a.test|w=0")]
    [InlineData("http://a.test|w=1001")]
    [InlineData("http://a.test|w=")]
    [InlineData("http://a.test|weight=2")]
    [InlineData("http://a.test|w=-1")]
    public void Downstream_BadWeight_Throws(string value)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("downstream", value), ("balancing", "leastRequests")));

        Assert.Equal("downstream", e.Key);
    }

    [Fact]
    public void DestinationsSection_GivesAddressesAndWeights()
    {
        var options = ConfiguredOptions.Read(
            ("destinations:0:address", "http://a.test"),
            ("destinations:0:weight", "2"),
            ("destinations:1:address", "https://b.test:8443/"),
            ("balancing", "powerOfTwoChoices"));

        Assert.Equal(["http://a.test/ 2", "https://b.test:8443/ 1"], options.Destinations.Select(d => $"{d.Endpoint} {d.Weight}"));
        Assert.False(options.EmbeddedDownstream);
    }

    [Theory]
    [InlineData("destinations:0:address", "ftp://a.test")]
    [InlineData("destinations:0:weight", "heavy")]
    public void DestinationsSection_BadEntry_NamesItsKey(string key, string value)
    {
        var entry = key.EndsWith(":address", StringComparison.Ordinal) ? [(key, value)] : new[] { ("destinations:0:address", "http://a.test"), (key, value) };
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read([.. entry, ("balancing", "leastRequests")]));

        Assert.Equal(key, e.Key);
    }

    [Fact]
    public void DownstreamAndDestinationsSection_Together_Throw()
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(
            ("downstream", "http://a.test"), ("destinations:0:address", "http://b.test")));

        Assert.Equal("destinations", e.Key);
    }

    [Theory]
    [InlineData("roundRobin")]
    [InlineData("roundRobinPerConnection")]
    [InlineData("random")]
    [InlineData("firstAlphabetical")]
    public void Weights_WithAPolicyThatIgnoresThem_Throw(string policy)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("downstream", "http://a.test|w=2;http://b.test"), ("balancing", policy)));

        Assert.Equal("balancing", e.Key);
        Assert.Contains("weightedRoundRobin", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MoreThan64Destinations_Throw()
    {
        var value = string.Join(';', Enumerable.Range(0, 65).Select(i => $"http://h{i}.test"));

        Assert.Equal("downstream", Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("downstream", value))).Key);
    }

    [Theory]
    [InlineData("roundrobinperconnection", BalancingPolicy.RoundRobinPerConnection)]
    [InlineData("roundRobin", BalancingPolicy.RoundRobin)]
    [InlineData("LEASTREQUESTS", BalancingPolicy.LeastRequests)]
    [InlineData("powerOfTwoChoices", BalancingPolicy.PowerOfTwoChoices)]
    [InlineData("weightedRoundRobin", BalancingPolicy.WeightedRoundRobin)]
    public void Balancing_NamesAreCaseInsensitive(string value, BalancingPolicy expected)
        => Assert.Equal(expected, ConfiguredOptions.Read(("balancing", value)).Balancing);

    [Fact]
    public void Defaults_AreThoseDocumented()
    {
        var options = ConfiguredOptions.Read();

        Assert.Equal(BalancingPolicy.RoundRobinPerConnection, options.Balancing);
        Assert.Equal(5, options.PassiveHealthFailures);
        Assert.Equal(TimeSpan.FromSeconds(10), options.PassiveHealthReactivation);
        Assert.Null(options.ActiveHealthPath);
        Assert.Equal(TimeSpan.FromSeconds(5), options.ActiveHealthInterval);
        Assert.Equal(TimeSpan.FromSeconds(1), options.ActiveHealthTimeout);
        Assert.Equal(1, options.ActiveHealthyThreshold);
        Assert.Equal(2, options.ActiveUnhealthyThreshold);
        Assert.Equal(1, options.MaxRetries);
        Assert.Equal(0, options.MaxConnectionsPerDestination);
        Assert.Equal(0, options.MaxQueuedPerDestination);
        Assert.Equal(TimeSpan.FromSeconds(5), options.QueueTimeout);
        Assert.Equal(0, options.MaxClientConnections);
        Assert.Null(options.AdminUrls);
    }

    [Fact]
    public void EveryKey_IsRead()
    {
        var options = ConfiguredOptions.Read(
            ("health.passive.consecutiveFailures", "3"),
            ("health.passive.reactivationMs", "2500"),
            ("health.active.path", "/healthz?deep=1"),
            ("health.active.intervalMs", "750"),
            ("health.active.timeoutMs", "300"),
            ("health.active.healthyThreshold", "2"),
            ("health.active.unhealthyThreshold", "4"),
            ("retries.max", "0"),
            ("limits.maxConnectionsPerDestination", "100"),
            ("limits.maxQueuedPerDestination", "50"),
            ("limits.queueTimeoutMs", "200"),
            ("limits.maxClientConnections", "10000"),
            ("admin.urls", "http://127.0.0.1:9090;http://localhost:9091"));

        Assert.Equal(3, options.PassiveHealthFailures);
        Assert.Equal(TimeSpan.FromMilliseconds(2500), options.PassiveHealthReactivation);
        Assert.Equal("/healthz?deep=1", options.ActiveHealthPath);
        Assert.Equal(TimeSpan.FromMilliseconds(750), options.ActiveHealthInterval);
        Assert.Equal(TimeSpan.FromMilliseconds(300), options.ActiveHealthTimeout);
        Assert.Equal(2, options.ActiveHealthyThreshold);
        Assert.Equal(4, options.ActiveUnhealthyThreshold);
        Assert.Equal(0, options.MaxRetries);
        Assert.Equal(100, options.MaxConnectionsPerDestination);
        Assert.Equal(50, options.MaxQueuedPerDestination);
        Assert.Equal(TimeSpan.FromMilliseconds(200), options.QueueTimeout);
        Assert.Equal(10000, options.MaxClientConnections);
        Assert.Equal("http://127.0.0.1:9090;http://localhost:9091", options.AdminUrls);
    }

    [Theory]
    [InlineData("balancing", "fastest")]
    [InlineData("health.passive.consecutiveFailures", "-1")]
    [InlineData("health.passive.reactivationMs", "0")]
    [InlineData("health.active.path", "healthz")]
    [InlineData("health.active.path", "//other.host/x")]
    [InlineData("health.active.intervalMs", "soon")]
    [InlineData("health.active.healthyThreshold", "0")]
    [InlineData("health.active.unhealthyThreshold", "0")]
    [InlineData("retries.max", "-1")]
    [InlineData("limits.maxConnectionsPerDestination", "x")]
    [InlineData("limits.maxQueuedPerDestination", "-5")]
    [InlineData("limits.queueTimeoutMs", "0")]
    [InlineData("limits.maxClientConnections", "lots")]
    [InlineData("admin.urls", "https://127.0.0.1:9090")]
    [InlineData("admin.urls", "127.0.0.1:9090")]
    public void InvalidValue_ThrowsNamingKeyAndValue(string key, string value)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read((key, value)));

        Assert.Equal(key, e.Key);
        Assert.Contains($"'{key}' = '{value}'", e.Message, StringComparison.Ordinal);
    }
}
