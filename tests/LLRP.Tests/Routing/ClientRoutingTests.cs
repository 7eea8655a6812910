using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using LLRP.ClientSide;
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

        Assert.Equal(ForwarderError.None, await routing.BeginAsync(route, idempotent: true, Head));
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

        Assert.Equal(ForwarderError.ConnectTimeout, await routing.BeginAsync(route, idempotent: true, Head));
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

        var error = await routing.BeginAsync(route, idempotent: false, Head);

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
        await routing.BeginAsync(route, idempotent, Head);

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
            await routing.BeginAsync(route, idempotent: true, Head);
            routing.Report(ForwarderError.InvalidResponse, completed: 0);
            routing.Release();
        }

        var destinations = route.Cluster.Destinations.Current;
        Assert.False(destinations[0].IsAvailable(Environment.TickCount64));
        await routing.BeginAsync(route, idempotent: true, Head);
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

        Assert.Equal(ForwarderError.None, await first.BeginAsync(route, idempotent: true, Head));
        Assert.Equal(ForwarderError.QueueFull, await second.BeginAsync(route, idempotent: true, Head));
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

        Assert.Equal(ForwarderError.None, await routing.BeginAsync(route, idempotent: true, Head));
        routing.Release();
    }

    /// <summary>A request bound by cookie to the destination it was sent to first comes back to it; the binding is sent once.</summary>
    [Fact]
    public async Task Affinity_Cookie_SticksToTheBoundDestination()
    {
        var cluster = TestClusters.Cluster(3, BalancingPolicy.RoundRobin) with { Affinity = CookieAffinity(AffinityFailurePolicy.Redistribute) };
        var (routing, route, forwarder, response) = MakeWithResponse(cluster);

        Assert.Equal(ForwarderError.None, await routing.BeginAsync(route, idempotent: true, Head));
        var bound = routing.Destination!;
        var line = Encoding.ASCII.GetString(response.AffinityLine);
        routing.Release();
        var key = line["Set-Cookie: .Test.Affinity=".Length..line.IndexOf(';')];
        Assert.Equal(Encoding.ASCII.GetString(bound.AffinityKey), key);
        Assert.Contains("; path=/; httponly", line, StringComparison.Ordinal);

        for (var i = 0; i < 4; i++)
        {
            Assert.Equal(ForwarderError.None, await routing.BeginAsync(route, idempotent: true, Parse($"GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1; .Test.Affinity={key}; b=2\r\n\r\n")));
            Assert.Same(bound, routing.Destination);
            Assert.Empty(response.AffinityLine);
            routing.Release();
        }

        Assert.Equal(5, forwarder.Begun.Count);
    }

    /// <summary>The bound destination ejected: Redistribute picks another and binds anew; Return503Error answers 503.</summary>
    [Theory]
    [InlineData(AffinityFailurePolicy.Redistribute, nameof(ForwarderError.None))]
    [InlineData(AffinityFailurePolicy.Return503Error, nameof(ForwarderError.AffinityDestinationUnavailable))]
    public async Task Affinity_BoundDestinationEjected_FollowsTheFailurePolicy(AffinityFailurePolicy policy, string expectedError)
    {
        var expected = Enum.Parse<ForwarderError>(expectedError);
        var cluster = TestClusters.Cluster(2, BalancingPolicy.FirstAlphabetical, passiveFailures: 1) with { Affinity = CookieAffinity(policy) };
        var (routing, route, _, response) = MakeWithResponse(cluster);
        var bound = route.Cluster.Destinations.Current[0];
        bound.Health.ReportFailure(Environment.TickCount64);

        var error = await routing.BeginAsync(route, idempotent: true, Parse($"GET / HTTP/1.1\r\nHost: h\r\nCookie: .Test.Affinity={Encoding.ASCII.GetString(bound.AffinityKey)}\r\n\r\n"));

        Assert.Equal(expected, error);
        if (expected == ForwarderError.None)
        {
            Assert.NotSame(bound, routing.Destination);
            Assert.Equal(routing.Destination!.AffinityLine, response.AffinityLine);
        }

        routing.Release();
        Assert.All(route.Cluster.Destinations.Current, destination => Assert.Equal(0, destination.ActiveRequests));
    }

    private static SessionAffinityOptions CookieAffinity(AffinityFailurePolicy policy)
        => new(AffinityPolicy.Cookie, policy, ".Test.Affinity", AffinityCookieOptions.Default);

    private static (ClientRouting Routing, Route Route, ScriptedForwarder Forwarder, ClientResponseWriter Response) MakeWithResponse(ClusterOptions cluster)
    {
        var router = new Router(TestClusters.CatchAll(cluster), TestClusters.Metrics());
        var forwarder = new ScriptedForwarder(_ => ForwarderError.None);
        var response = Response();
        var routing = new ClientRouting(router, forwarder, Rewriter(), response, new RoutingServices(TestClusters.Metrics(), Log(), true), defaultPort: 80);
        return (routing, router.Current.Routes[0], forwarder, response);
    }

    private static RequestHead Head => Parse("GET / HTTP/1.1\r\nHost: h\r\n\r\n");

    private static RequestHead Parse(string request)
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes(request)), head, new RequestLimits(8192, 32768, 100), out _));
        return head;
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

    private static ClientResponseWriter Response() => new(new Pipe().Writer, TestClusters.Metrics(), timed: false);

    private static FailureLog Log() => new(Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance);
}
