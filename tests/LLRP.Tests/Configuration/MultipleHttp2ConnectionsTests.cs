using LLRP.Configuration;

namespace LLRP.Tests.Configuration;

/// <summary>
/// A cluster's <c>HttpClient:EnableMultipleHttp2Connections</c> (YARP's key and default): read per cluster, one value for the
/// process because HTTP/2 requests go to destinations through one HttpClient handler, so clusters that disagree are refused,
/// at start-up and on a reload.
/// </summary>
public sealed class MultipleHttp2ConnectionsTests
{
    private const string Key = "ReverseProxy:Clusters:backend:HttpClient:EnableMultipleHttp2Connections";

    /// <summary><see cref="ReverseProxyFiles.Minimal"/> with a second cluster, <c>other</c>, and a route to it.</summary>
    private static readonly string TwoClusters = ReverseProxyFiles.With(
        ReverseProxyFiles.MinimalWith("ReverseProxy:Clusters:other", """{ "Destinations": { "two": { "Address": "http://two.test/" } } }"""),
        "ReverseProxy:Routes:other",
        """{ "ClusterId": "other", "Match": { "Path": "/other/{**rest}" } }""");

    [Fact]
    public void Unset_SeveralConnections()
    {
        var options = ReverseProxyFiles.Read(ReverseProxyFiles.Minimal);

        Assert.True(Assert.Single(options.Routing.Clusters).EnableMultipleHttp2Connections);
        Assert.True(options.EnableMultipleHttp2Connections);
    }

    [Theory]
    [InlineData("false", false)]
    [InlineData("true", true)]
    [InlineData("\"False\"", false)]
    public void Set_ReadForTheClusterAndTheProcess(string value, bool expected)
    {
        var options = ReverseProxyFiles.Read(ReverseProxyFiles.MinimalWith(Key, value));

        Assert.Equal(expected, Assert.Single(options.Routing.Clusters).EnableMultipleHttp2Connections);
        Assert.Equal(expected, options.EnableMultipleHttp2Connections);
    }

    [Fact]
    public void SameInEveryCluster_Accepted()
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.With(TwoClusters, Key, "false"), "ReverseProxy:Clusters:other:HttpClient:EnableMultipleHttp2Connections", "false");

        var options = ReverseProxyFiles.Read(json);

        Assert.All(options.Routing.Clusters, cluster => Assert.False(cluster.EnableMultipleHttp2Connections));
        Assert.False(options.EnableMultipleHttp2Connections);
    }

    [Fact]
    public void ClustersDisagree_RefusedNamingTheOddOne()
    {
        var e = ReverseProxyFiles.Refused(ReverseProxyFiles.With(TwoClusters, Key, "false"), "ReverseProxy:Clusters:other:HttpClient:EnableMultipleHttp2Connections");

        Assert.Contains("one HttpClient handler for all clusters", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ChangedOnReload_Refused()
    {
        var started = ReverseProxyFiles.Read(ReverseProxyFiles.Minimal);

        var e = Assert.Throws<ProxyConfigurationException>(() => ProxyOptionsReader.ReadRouting(ReverseProxyFiles.Configuration(ReverseProxyFiles.MinimalWith(Key, "false")), started));

        Assert.Equal(Key, e.Key);
    }
}
