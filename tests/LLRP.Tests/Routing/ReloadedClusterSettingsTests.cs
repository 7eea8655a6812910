using LLRP.Configuration.Routes;
using LLRP.Routing;

namespace LLRP.Tests.Routing;

/// <summary>
/// A reload that changes a cluster's settings besides its destinations makes a new cluster, so destinations that stay
/// take the new settings their endpoints carry: the PROXY protocol header and the certificate check.
/// </summary>
public sealed class ReloadedClusterSettingsTests
{
    [Fact]
    public void Reload_ProxyProtocolTurnedOn_DestinationsThatStaySendIt()
    {
        var before = TestClusters.Cluster(2);
        var router = new Router(TestClusters.CatchAll(before), TestClusters.Metrics());
        Assert.All(router.Current.Clusters.Single().Destinations.Current, d => Assert.Equal(ProxyProtocolVersion.None, d.Endpoint.ProxyProtocol));

        router.Update(TestClusters.CatchAll(before with { ProxyProtocol = ProxyProtocolVersion.V2 }));

        Assert.All(router.Current.Clusters.Single().Destinations.Current, d => Assert.Equal(ProxyProtocolVersion.V2, d.Endpoint.ProxyProtocol));
    }

    [Fact]
    public void Reload_DestinationsOnly_KeepsTheClusterAndItsDestinations()
    {
        var before = TestClusters.Cluster(2);
        var router = new Router(TestClusters.CatchAll(before), TestClusters.Metrics());
        var cluster = router.Current.Clusters.Single();
        var kept = cluster.Destinations.Current[0];

        router.Update(TestClusters.CatchAll(before with { Destinations = [before.Destinations[0]] }));

        Assert.Same(cluster, router.Current.Clusters.Single());
        Assert.Same(kept, router.Current.Clusters.Single().Destinations.Current.Single());
    }
}
