namespace LLRP.Tests.Configuration;

/// <summary>Clusters LLRP refuses at start-up: each refusal names the full key path, and says what is allowed.</summary>
public sealed class ClusterRefusalTests
{
    private const string Cluster = "ReverseProxy:Clusters:backend";

    /// <summary>The minimal file with <paramref name="value"/> at <paramref name="key"/>, refused naming that key, with <paramref name="reason"/> in the message.</summary>
    private static void Refused(string key, string? value, string? reason = null, params (string Key, string Value)[] values)
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.MinimalWith(key, value), key, values);
        if (reason is not null)
        {
            Assert.Contains(reason, e.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(Cluster + ":LoadBalancingPolicy", "\"Fastest\"")]
    [InlineData(Cluster + ":LoadBalancingPolicy", "\"2\"")]
    [InlineData(Cluster + ":HealthCheck:AvailableDestinationsPolicy", "\"Any\"")]
    [InlineData(Cluster + ":SessionAffinity:FailurePolicy", "\"Retry\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:SameSite", "\"Loose\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:SecurePolicy", "\"Sometimes\"")]
    [InlineData(Cluster + ":HttpRequest:VersionPolicy", "\"Newest\"")]
    public void Read_BadEnum_Refused(string key, string value) => Refused(key, value);

    [Theory]
    [InlineData(Cluster + ":HealthCheck:Passive:ReactivationPeriod", "\"ten seconds\"")]
    [InlineData(Cluster + ":HealthCheck:Passive:ReactivationPeriod", "\"00:00:00\"")]
    [InlineData(Cluster + ":HealthCheck:Active:Interval", "\"-00:00:05\"")]
    [InlineData(Cluster + ":HealthCheck:Active:Timeout", "\"5s\"")]
    [InlineData(Cluster + ":HttpRequest:ActivityTimeout", "\"00:61:00\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:MaxAge", "\"forever\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:Expiration", "\"0\"")]
    public void Read_BadTimeSpan_Refused(string key, string value) => Refused(key, value, "TimeSpan");

    [Theory]
    [InlineData(Cluster + ":HealthCheck:Active:Enabled", "\"yes\"")]
    [InlineData(Cluster + ":HealthCheck:Passive:Enabled", "\"1\"")]
    [InlineData(Cluster + ":SessionAffinity:Enabled", "\"on\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:HttpOnly", "\"no\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:IsEssential", "\"maybe\"")]
    [InlineData(Cluster + ":HttpClient:DangerousAcceptAnyServerCertificate", "\"0\"")]
    [InlineData(Cluster + ":HttpClient:EnableMultipleHttp2Connections", "\"several\"")]
    public void Read_BadBool_Refused(string key, string value) => Refused(key, value, "true or false");

    [Theory]
    [InlineData(Cluster + ":HttpClient:MaxConnectionsPerServer", "0")]
    [InlineData(Cluster + ":HttpClient:MaxConnectionsPerServer", "\"many\"")]
    [InlineData(Cluster + ":Metadata:Llrp.Retries", "\"-1\"")]
    [InlineData(Cluster + ":Metadata:Llrp.MaxQueuedPerDestination", "\"lots\"")]
    [InlineData(Cluster + ":Metadata:Llrp.QueueTimeoutMs", "\"0\"")]
    [InlineData(Cluster + ":Metadata:Llrp.PassiveConsecutiveFailures", "\"0\"")]
    [InlineData(Cluster + ":Metadata:Llrp.ActiveHealthyThreshold", "\"0\"")]
    [InlineData(Cluster + ":Metadata:ConsecutiveFailuresHealthPolicy.Threshold", "\"none\"")]
    [InlineData(Cluster + ":Destinations:one:Metadata:Llrp.Weight", "\"0\"")]
    [InlineData(Cluster + ":Destinations:one:Metadata:Llrp.Weight", "\"1001\"")]
    public void Read_BadInteger_Refused(string key, string value) => Refused(key, value, "an integer");

    [Theory]
    [InlineData(Cluster + ":Metadata:Llrp.Retry", "did you mean Llrp.Retries?")]
    [InlineData(Cluster + ":Metadata:Llrp.Unknown", "known Llrp. keys")]
    [InlineData(Cluster + ":Destinations:one:Metadata:Llrp.Wieght", "did you mean Llrp.Weight?")]
    public void Read_UnknownLlrpMetadata_Refused(string key, string reason) => Refused(key, "\"1\"", reason);

    [Theory]
    [InlineData(Cluster + ":LoadBalancing", "did you mean LoadBalancingPolicy?")]
    [InlineData(Cluster + ":HealthCheck:Activ", "did you mean Active?")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:Secure", "unknown key")]
    [InlineData(Cluster + ":Destinations:one:Adress", "did you mean Address?")]
    public void Read_UnknownClusterKey_Refused(string key, string reason) => Refused(key, "\"x\"", reason);

    [Theory]
    [InlineData(Cluster + ":HttpClient:SslProtocols", "\"Tls13\"")]
    [InlineData(Cluster + ":HttpClient:WebProxy", """{ "Address": "http://proxy.test" }""")]
    [InlineData(Cluster + ":HttpClient:RequestHeaderEncoding", "\"Latin1\"")]
    [InlineData(Cluster + ":HttpClient:ResponseHeaderEncoding", "\"Latin1\"")]
    [InlineData(Cluster + ":HttpRequest:AllowResponseBuffering", "false")]
    [InlineData(Cluster + ":Destinations:one:Health", "\"http://one.test:9000/\"")]
    public void Read_YarpKeyLlrpLacks_NotSupported(string key, string value) => Refused(key, value, "not supported by LLRP");

    [Fact]
    public void Read_TransportFailureRate_RefusedWithLlrpsPolicy()
        => Refused(Cluster + ":HealthCheck:Passive:Policy", "\"TransportFailureRate\"", "Llrp.PassiveConsecutiveFailures");

    [Fact]
    public void Read_OtherActivePolicy_Refused()
        => Refused(Cluster + ":HealthCheck:Active:Policy", "\"FirstUnsuccessfulResponse\"", "not supported by LLRP");

    [Theory]
    [InlineData("HashCookie")]
    [InlineData("ArrCookie")]
    public void Read_OtherAffinityPolicy_Refused(string policy)
        => Refused(Cluster + ":SessionAffinity:Policy", $"\"{policy}\"", "Cookie or CustomHeader");

    [Theory]
    [InlineData("\"1.0\"")]
    [InlineData("\"3\"")]
    public void Read_HttpVersionNeither11Nor2_Refused(string version)
        => Refused(Cluster + ":HttpRequest:Version", version, "1.1, or 2 (2.0)");

    [Fact]
    public void Read_PassiveEnabledWithoutThreshold_Refused()
        => Refused(Cluster + ":HealthCheck:Passive:Enabled", "true", "Llrp.PassiveConsecutiveFailures", ("health.passive.consecutiveFailures", "0"));

    [Theory]
    [InlineData(Cluster + ":HealthCheck:Active:Path", "\"health\"")]
    [InlineData(Cluster + ":HealthCheck:Active:Query", "\"?a=b c\"")]
    [InlineData(Cluster + ":SessionAffinity:AffinityKeyName", "\"my key\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:Path", "\"api\"")]
    [InlineData(Cluster + ":SessionAffinity:Cookie:Domain", "\"exa;mple.com\"")]
    public void Read_BadText_Refused(string key, string value) => Refused(key, value);

    [Fact]
    public void Read_ClusterWithoutDestinations_Refused()
        => Refused(Cluster + ":Destinations", "{}", "1 to 64 destinations");

    [Fact]
    public void Read_ClusterWith65Destinations_Refused()
    {
        var destinations = string.Join(", ", Enumerable.Range(0, 65).Select(i => $"\"d{i}\": {{ \"Address\": \"http://d{i}.test/\" }}"));

        Refused(Cluster + ":Destinations", $"{{ {destinations} }}", "1 to 64 destinations");
    }

    [Theory]
    [InlineData("\"ftp://one.test/\"")]
    [InlineData("\"one.test\"")]
    [InlineData("\"http://one.test/?q=1\"")]
    [InlineData("\"http://user@one.test/\"")]
    public void Read_BadAddress_Refused(string address)
        => Refused(Cluster + ":Destinations:one:Address", address, "http:// or https://");

    [Fact]
    public void Read_DestinationWithoutAddress_Refused()
        => Refused(Cluster + ":Destinations:one:Address", null);

    [Fact]
    public void Read_BadDestinationHost_Refused()
        => Refused(Cluster + ":Destinations:one:Host", "\"*.one.test\"");

    [Theory]
    [InlineData("RoundRobin")]
    [InlineData("RoundRobinPerConnection")]
    [InlineData("Random")]
    [InlineData("FirstAlphabetical")]
    public void Read_WeightWithAPolicyThatIgnoresIt_Refused(string policy)
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.MinimalWith(Cluster + ":LoadBalancingPolicy", $"\"{policy}\""), Cluster + ":Destinations:one:Metadata:Llrp.Weight", "\"2\"");

        var e = ReverseProxyFiles.Refused(json, Cluster + ":Destinations:one:Metadata:Llrp.Weight");

        Assert.Contains("WeightedRoundRobin", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("WeightedRoundRobin")]
    [InlineData("leastrequests")]
    [InlineData("PowerOfTwoChoices")]
    public void Read_WeightWithAPolicyThatUsesIt_Accepted(string policy)
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.MinimalWith(Cluster + ":LoadBalancingPolicy", $"\"{policy}\""), Cluster + ":Destinations:one:Metadata:Llrp.Weight", "\"2\"");

        Assert.Equal(2, Assert.Single(Assert.Single(ReverseProxyFiles.Routing(json).Clusters).Destinations).Weight);
    }

    // YARP's spellings of the version, and its three policies; unset, HTTP/1.1 (YARP's 2.0 with fall-back becomes it).
    [Theory]
    [InlineData("\"2\"", "\"RequestVersionExact\"", "2.0", HttpVersionPolicy.RequestVersionExact)]
    [InlineData("\"2.0\"", "\"RequestVersionOrLower\"", "2.0", HttpVersionPolicy.RequestVersionOrLower)]
    [InlineData("\"1.1\"", "\"RequestVersionOrHigher\"", "1.1", HttpVersionPolicy.RequestVersionOrHigher)]
    [InlineData(null, null, "1.1", HttpVersionPolicy.RequestVersionOrLower)]
    public void Read_HttpVersionAndPolicy_Taken(string? version, string? policy, string expected, HttpVersionPolicy expectedPolicy)
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.MinimalWith(Cluster + ":HttpRequest:Version", version), Cluster + ":HttpRequest:VersionPolicy", policy);

        var cluster = Assert.Single(ReverseProxyFiles.Routing(json).Clusters);
        Assert.Equal((Version.Parse(expected), expectedPolicy), (cluster.HttpVersion, cluster.VersionPolicy));
    }

    [Fact]
    public void Read_UserMetadata_Ignored()
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.MinimalWith(Cluster + ":Metadata", """{ "MyKey": "x", "TransportFailureRateHealthPolicy.RateLimit": "0.5" }"""), Cluster + ":Destinations:one:Metadata", """{ "zone": "eu" }""");

        Assert.Single(ReverseProxyFiles.Routing(json).Clusters);
    }

    [Fact]
    public void Read_NoClusters_Refused()
        => Refused("ReverseProxy:Clusters", null);
}
