using LLRP.Configuration;
using LLRP.Routing.Destinations;
using static LLRP.Tests.Routing.Destinations.TestDestinations;

namespace LLRP.Tests.Routing.Destinations;

public sealed class LoadBalancerTests
{
    private const long Now = 1_000_000;

    [Fact]
    public void RoundRobin_TakesEachDestinationInTurn()
    {
        var balancer = new LoadBalancer(Registry(Options(1, 1, 1)), BalancingPolicy.RoundRobin);

        Assert.Equal("abcabc", Picks(balancer, 6));
    }

    [Fact]
    public void RoundRobin_SkipsAnEjectedDestination()
    {
        var registry = Registry(EjectedAfter(1, 1, 1, 1));
        registry.Current[1].Health.ReportFailure(Now);
        var balancer = new LoadBalancer(registry, BalancingPolicy.RoundRobin);

        Assert.DoesNotContain('b', Picks(balancer, 6));
    }

    [Theory]
    [InlineData(BalancingPolicy.RoundRobin)]
    [InlineData(BalancingPolicy.LeastRequests)]
    public void OneDestinationOut_TheOthersShareItsTurnsEvenly(BalancingPolicy policy)
    {
        var registry = Registry(EjectedAfter(1, 1, 1, 1));
        registry.Current[1].Health.ReportFailure(Now);
        var balancer = new LoadBalancer(registry, policy);

        var picks = Picks(balancer, 12);

        Assert.Equal(6, picks.Count(c => c == 'a'));
        Assert.Equal(6, picks.Count(c => c == 'c'));
    }

    [Fact]
    public void EveryPolicy_SkipsTheDestinationsTheBatchTried()
    {
        foreach (var policy in Enum.GetValues<BalancingPolicy>())
        {
            var registry = Registry(Options(1, 1, 1));
            var balancer = new LoadBalancer(registry, policy);
            const ulong triedAAndC = 0b101;

            for (var i = 0; i < 10; i++)
            {
                Assert.Equal("b", Short(balancer.Pick(kept: null, triedAAndC, Now)));
            }

            Assert.Null(balancer.Pick(kept: null, tried: 0b111, Now));
        }
    }

    [Fact]
    public void EveryPolicy_NoAvailableDestination_PicksNone()
    {
        foreach (var policy in Enum.GetValues<BalancingPolicy>())
        {
            var registry = Registry(EjectedAfter(1, 1, 1));
            foreach (var destination in registry.Current)
            {
                destination.Health.ReportFailure(Now);
            }

            Assert.Null(new LoadBalancer(registry, policy).Pick(kept: null, tried: 0, Now));
        }
    }

    [Fact]
    public void WeightedRoundRobin_IsSmooth_ThreeToOne()
    {
        var balancer = new LoadBalancer(Registry(Options(3, 1)), BalancingPolicy.WeightedRoundRobin);

        Assert.Equal("aabaaaba", Picks(balancer, 8));
    }

    [Fact]
    public void WeightedRoundRobin_ProportionsFollowTheWeights()
    {
        var balancer = new LoadBalancer(Registry(Options(5, 3, 2)), BalancingPolicy.WeightedRoundRobin);

        var picks = Picks(balancer, 1000);

        Assert.Equal(500, picks.Count(c => c == 'a'));
        Assert.Equal(300, picks.Count(c => c == 'b'));
        Assert.Equal(200, picks.Count(c => c == 'c'));
    }

    [Fact]
    public async Task LeastRequests_PicksTheDestinationWithFewestInFlight()
    {
        var registry = Registry(Options(1, 1, 1));
        await registry.Current[0].EnterAsync();
        await registry.Current[0].EnterAsync();
        await registry.Current[2].EnterAsync();
        var balancer = new LoadBalancer(registry, BalancingPolicy.LeastRequests);

        Assert.Equal("bbbb", Picks(balancer, 4));
    }

    [Fact]
    public void LeastRequests_TiesRotate()
    {
        var balancer = new LoadBalancer(Registry(Options(1, 1, 1)), BalancingPolicy.LeastRequests);

        Assert.Equal("abcabc", Picks(balancer, 6));
    }

    [Fact]
    public async Task LeastRequests_CountsRequestsPerUnitOfWeight()
    {
        var registry = Registry(Options(4, 1));
        for (var i = 0; i < 3; i++)
        {
            await registry.Current[0].EnterAsync();
        }

        await registry.Current[1].EnterAsync();
        var balancer = new LoadBalancer(registry, BalancingPolicy.LeastRequests);

        // 3 in flight at weight 4 is less than 1 at weight 1.
        Assert.Equal("a", Short(balancer.Pick(kept: null, tried: 0, Now)));
    }

    [Fact]
    public async Task PowerOfTwoChoices_WithTwoCandidates_AlwaysTakesTheLessLoaded()
    {
        var registry = Registry(Options(1, 1));
        await registry.Current[0].EnterAsync();
        var balancer = new LoadBalancer(registry, BalancingPolicy.PowerOfTwoChoices);

        Assert.Equal(new string('b', 50), Picks(balancer, 50));
    }

    [Fact]
    public async Task PowerOfTwoChoices_NeverTakesTheMostLoadedOfThree()
    {
        var registry = Registry(Options(1, 1, 1));
        for (var i = 0; i < 5; i++)
        {
            await registry.Current[2].EnterAsync();
        }

        var picks = Picks(new LoadBalancer(registry, BalancingPolicy.PowerOfTwoChoices), 300);

        Assert.DoesNotContain('c', picks);
        Assert.Contains('a', picks);
        Assert.Contains('b', picks);
    }

    [Fact]
    public void RoundRobinPerConnection_KeepsTheConnectionsDestinationWhileAvailable()
    {
        var registry = Registry(EjectedAfter(1, 1, 1, 1));
        var balancer = new LoadBalancer(registry, BalancingPolicy.RoundRobinPerConnection);
        var kept = balancer.Pick(kept: null, tried: 0, Now)!;

        Assert.All(Enumerable.Range(0, 5), _ => Assert.Same(kept, balancer.Pick(kept, tried: 0, Now)));

        kept.Health.ReportFailure(Now);
        var moved = balancer.Pick(kept, tried: 0, Now);
        Assert.NotNull(moved);
        Assert.NotSame(kept, moved);
    }

    [Fact]
    public void RoundRobinPerConnection_MovesWhenAReloadDropsTheDestination()
    {
        var options = Options(1, 1);
        var registry = Registry(options);
        var balancer = new LoadBalancer(registry, BalancingPolicy.RoundRobinPerConnection);
        var a = registry.Current[0];

        registry.Update([options.Destinations[1]]);

        Assert.Equal("b", Short(balancer.Pick(a, tried: 0, Now)));
    }

    private static string Picks(LoadBalancer balancer, int count)
        => string.Concat(Enumerable.Range(0, count).Select(_ => Short(balancer.Pick(kept: null, tried: 0, Now))));
}
