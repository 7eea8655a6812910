using System.Net;
using LLRP.Configuration.Routes;
using LLRP.Routing;

namespace LLRP.Tests.Routing;

/// <summary>
/// Which clusters raw mode leaves to HttpClient for HTTP/1.1 clients (<see cref="Cluster.OverHttpClient"/>): those that may
/// be asked HTTP/2 under YARP's meanings of <c>HttpRequest:Version</c> and <c>VersionPolicy</c>, unless they send the
/// PROXY protocol header, which only raw mode's own connections carry.
/// </summary>
public sealed class ClusterOverHttpClientTests
{
    public static TheoryData<string, HttpVersionPolicy, bool> Versions => new()
    {
        { "1.1", HttpVersionPolicy.RequestVersionOrLower, false },
        { "1.1", HttpVersionPolicy.RequestVersionExact, false },
        { "1.1", HttpVersionPolicy.RequestVersionOrHigher, true },
        { "2.0", HttpVersionPolicy.RequestVersionOrLower, true },
        { "2.0", HttpVersionPolicy.RequestVersionExact, true },
        { "2.0", HttpVersionPolicy.RequestVersionOrHigher, true },
    };

    [Theory]
    [MemberData(nameof(Versions))]
    public void OverHttpClient_WhenHttp2MayBeAsked(string version, HttpVersionPolicy policy, bool overHttpClient)
    {
        var options = TestClusters.Cluster(1) with { HttpVersion = Version.Parse(version), VersionPolicy = policy };

        Assert.Equal(overHttpClient, options.AsksHttp2);
        Assert.Equal(overHttpClient, new Cluster(options).OverHttpClient);
    }

    [Fact]
    public void Reload_ToVersion2_MakesACluster_OverHttpClient()
    {
        var before = TestClusters.Cluster(1);
        var router = new Router(TestClusters.CatchAll(before), TestClusters.Metrics());
        Assert.False(router.Current.Clusters.Single().OverHttpClient);

        router.Update(TestClusters.CatchAll(before with { HttpVersion = HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionExact }));

        Assert.True(router.Current.Clusters.Single().OverHttpClient);
    }
}
