using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Routing;
using LLRP.Upstream;

namespace LLRP.Tests.Routing;

/// <summary>
/// A client connection's routing, in memory: the destination picked, the slot held and given back on every path,
/// retries elsewhere within the cluster's bound and the error policy, and passive health fed with each outcome.
/// </summary>
public sealed class ClientRoutingTests
{
    [Fact]
    public async Task BeginAsync_ConnectFailed_RetriedElsewhere_SlotOfTheFailedOneGivenBack()
    {
        var (routing, route, forwarder) = Make(TestClusters.Cluster(3, BalancingPolicy.FirstAlphabetical), host => host == "a" ? ForwarderError.ConnectFailed : ForwarderError.None);

        Assert.Equal(ForwarderError.None, await routing.BeginAsync(route, idempotent: true));
        Assert.Equal(["a", "b"], forwarder.Begun);
        var destinations = route.Cluster.Destinations.Current;
        Assert.Equal(0, destinations[0].ActiveRequests);
        Assert.Equal(1, destinations[1].ActiveRequests);
        Assert.Equal("http://b.test/", routing.Destination!.Name);

        routing.Release();
        Assert.All(destinations, destination => Assert.Equal(0, destination.ActiveRequests));
    }

    /// <summary><c>retries.max</c> bounds the attempts: with every destination failing, 1 + max are tried and the last failure stands.</summary>
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public async Task BeginAsync_EveryDestinationFails_TriesOnePlusMax(int maxRetries)
    {
        var (routing, route, forwarder) = Make(TestClusters.Cluster(4, maxRetries: maxRetries), _ => ForwarderError.ConnectTimeout);

        Assert.Equal(ForwarderError.ConnectTimeout, await routing.BeginAsync(route, idempotent: true));
        Assert.Equal(1 + maxRetries, forwarder.Begun.Count);
        Assert.Equal(forwarder.Begun.Count, forwarder.Begun.Distinct().Count());
        routing.Release();
        Assert.All(route.Cluster.Destinations.Current, destination => Assert.Equal(0, destination.ActiveRequests));
    }

    /// <summary>A POST whose connect failed was never sent: it goes elsewhere unless <c>retries.unsentAnyMethod</c> is off.</summary>
    [Theory]
    [InlineData(true, 2)]
    [InlineData(false, 1)]
    public async Task BeginAsync_NonIdempotentConnectFailed_RetriedOnlyWhenUnsentRetriesAllowed(bool unsentAnyMethod, int attempts)
    {
        var (routing, route, forwarder) = Make(TestClusters.Cluster(2), host => host == "a" ? ForwarderError.ConnectFailed : ForwarderError.None, unsentAnyMethod);

        var error = await routing.BeginAsync(route, idempotent: false);

        Assert.Equal(attempts, forwarder.Begun.Count);
        Assert.Equal(unsentAnyMethod ? ForwarderError.None : ForwarderError.ConnectFailed, error);
        routing.Release();
    }

    /// <summary>RFC 9110 §9.2.2: a request sent and closed on before any response goes elsewhere only when idempotent.</summary>
    [Theory]
    [InlineData(true, true)]
    [InlineData(false, false)]
    public async Task IsUnanswered_UpstreamClosed_OnlyIdempotent(bool idempotent, bool unanswered)
    {
        var (routing, route, _) = Make(TestClusters.Cluster(2), _ => ForwarderError.None);
        await routing.BeginAsync(route, idempotent);

        Assert.Equal(unanswered, routing.IsUnanswered(ForwardResult.Failed(0, ForwarderError.UpstreamClosed, started: false), idempotent));
        Assert.False(routing.IsUnanswered(ForwardResult.Failed(0, ForwarderError.UpstreamClosed, started: true), idempotent));
        Assert.False(routing.IsUnanswered(ForwardResult.Failed(0, ForwarderError.ResponseTimeout, started: false), idempotent));
        routing.Release();
    }

    /// <summary>Failures reported against a destination eject it once its threshold is reached; the next pick avoids it.</summary>
    [Fact]
    public async Task Report_FailuresEjectTheDestination_NextPickAvoidsIt()
    {
        var (routing, route, forwarder) = Make(TestClusters.Cluster(2, BalancingPolicy.FirstAlphabetical, maxRetries: 0, passiveFailures: 2), _ => ForwarderError.None);
        for (var i = 0; i < 2; i++)
        {
            await routing.BeginAsync(route, idempotent: true);
            routing.Report(ForwarderError.InvalidResponse, completed: 0);
            routing.Release();
        }

        var destinations = route.Cluster.Destinations.Current;
        Assert.False(destinations[0].IsAvailable(Environment.TickCount64));
        await routing.BeginAsync(route, idempotent: true);
        Assert.Equal(["a", "a", "b"], forwarder.Begun);
        routing.Release();
    }

    /// <summary>A destination at its limit without a queue refuses at once: no retry, no slot held.</summary>
    [Fact]
    public async Task BeginAsync_DestinationFull_Refused_NoSlotHeld()
    {
        var cluster = TestClusters.Cluster(1) with { MaxRequestsPerDestination = 1 };
        var router = new Router(TestClusters.CatchAll(cluster), TestClusters.Metrics());
        var route = router.Current.Routes[0];
        var first = Routing(router, new ScriptedForwarder(_ => ForwarderError.None), unsentAnyMethod: true);
        var second = Routing(router, new ScriptedForwarder(_ => ForwarderError.None), unsentAnyMethod: true);

        Assert.Equal(ForwarderError.None, await first.BeginAsync(route, idempotent: true));
        Assert.Equal(ForwarderError.QueueFull, await second.BeginAsync(route, idempotent: true));
        second.Release();
        Assert.Equal(1, route.Cluster.Destinations.Current[0].ActiveRequests);
        first.Release();
        Assert.Equal(0, route.Cluster.Destinations.Current[0].ActiveRequests);
    }

    /// <summary>HealthyOrPanic: with every destination ejected, requests go to them all the same.</summary>
    [Fact]
    public async Task BeginAsync_AllEjected_HealthyOrPanicStillPicks()
    {
        var cluster = TestClusters.Cluster(2, BalancingPolicy.RoundRobin, maxRetries: 0, passiveFailures: 1, available: AvailableDestinationsPolicy.HealthyOrPanic);
        var (routing, route, _) = Make(cluster, _ => ForwarderError.None);
        foreach (var destination in route.Cluster.Destinations.Current)
        {
            destination.Health.ReportFailure(Environment.TickCount64);
        }

        Assert.Equal(ForwarderError.None, await routing.BeginAsync(route, idempotent: true));
        routing.Release();
    }

    private static (ClientRouting Routing, Route Route, ScriptedForwarder Forwarder) Make(ClusterOptions cluster, Func<string, ForwarderError> begin, bool unsentAnyMethod = true)
    {
        var router = new Router(TestClusters.CatchAll(cluster), TestClusters.Metrics());
        var forwarder = new ScriptedForwarder(begin);
        return (Routing(router, forwarder, unsentAnyMethod), router.Current.Routes[0], forwarder);
    }

    private static ClientRouting Routing(Router router, ScriptedForwarder forwarder, bool unsentAnyMethod)
        => new(router, forwarder, Rewriter(), Response(), new RoutingServices(TestClusters.Metrics(), Log(), unsentAnyMethod), defaultPort: 80);

    private static RequestRewriter Rewriter() => new([], [], "127.0.0.1"u8.ToArray(), "http"u8.ToArray(), new RewriteSettings(false, true, true));

    private static ClientResponseWriter Response() => new(new Pipe().Writer, TestClusters.Metrics());

    private static FailureLog Log() => new(Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance);
}
