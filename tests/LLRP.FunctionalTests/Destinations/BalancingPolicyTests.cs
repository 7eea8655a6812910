using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// Key <c>balancing</c>: each policy spreads requests over three real origins as it promises, in every configuration,
/// shared invokers included (raw mode with an upstream connection per client connection reconnects when a request goes elsewhere).
/// </summary>
public sealed class BalancingPolicyTests
{
    /// <summary>How long the slow origin takes to answer: long against a loopback exchange, short for a test.</summary>
    private static readonly TimeSpan SlowAnswer = TimeSpan.FromMilliseconds(300);

    /// <summary>Sequential requests on one connection go to each destination in turn: each of three gets exactly a third.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task RoundRobin_SequentialRequestsOnOneConnectionTakeEachDestinationInTurn(string mode)
    {
        await using var fast = DestinationOrigin.Start("F");
        await using var other = DestinationOrigin.Start("O");
        await using var slow = DestinationOrigin.Start("S", TimeSpan.FromMilliseconds(50));
        await using var proxy = await TestHosts.StartProxyAsync($"{fast.Url};{other.Url};{slow.Url}", mode, "balancing=roundRobin");
        await using var client = await proxy.ConnectAsync();

        var served = new List<string>();
        for (var i = 0; i < 12; i++)
        {
            var response = await client.GetAsync($"/x?{i}");
            Assert.Equal(200, response.StatusCode);
            served.Add(response.BodyText);
        }

        Assert.Equal(4, fast.Served);
        Assert.Equal(4, other.Served);
        Assert.Equal(4, slow.Served);
        Assert.True(
            served.Select((name, i) => (name, i)).All(pair => pair.name == served[pair.i % 3]),
            $"Expected a rotation of period 3, got {string.Join(' ', served)}");
    }

    /// <summary>
    /// With the middle one of three destinations out (its probes fail), sequential requests alternate between the other
    /// two, "the next available destination in turn": each gets half, not the one after the missing one its turn too.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task RoundRobin_OneDestinationOut_OthersShareEvenly(string mode)
    {
        await using var first = DestinationOrigin.Start("A");
        await using var missing = DestinationOrigin.Start("M");
        await using var last = DestinationOrigin.Start("Z");
        missing.HealthStatus = 503;
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{first.Url};{missing.Url};{last.Url}", mode, [.. ActiveHealth.Settings, "balancing=roundRobin"]);
        await ActiveHealth.WaitUntilProbedDownAsync(missing);
        await using var client = await proxy.ConnectAsync();

        for (var i = 0; i < 12; i++)
        {
            Assert.Equal(200, (await client.GetAsync($"/x?{i}")).StatusCode);
        }

        Assert.Equal(0, missing.Served);
        Assert.True(first.Served == 6 && last.Served == 6, $"Expected 6 and 6, got {first.Served} and {last.Served}");
    }

    /// <summary>Weights 3 and 1 (<c>a|w=3;b</c>): every 4 sequential requests, 3 to the first and 1 to the second, in the same order each time.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task WeightedRoundRobin_WeightsThreeToOneGiveExactPattern(string mode)
    {
        await using var heavy = DestinationOrigin.Start("H");
        await using var light = DestinationOrigin.Start("L");
        await using var proxy = await TestHosts.StartProxyAsync($"{heavy.Url}|w=3;{light.Url}", mode, "balancing=weightedRoundRobin");
        await using var client = await proxy.ConnectAsync();

        var served = new List<string>();
        for (var i = 0; i < 16; i++)
        {
            var response = await client.GetAsync($"/x?{i}");
            Assert.Equal(200, response.StatusCode);
            served.Add(response.BodyText);
        }

        var blocks = served.Chunk(4).Select(block => string.Concat(block)).ToArray();
        Assert.True(
            blocks.All(block => block == blocks[0]) && blocks[0].Count(name => name == 'H') == 3,
            $"Expected the same 3:1 block four times, got {string.Join(' ', blocks)}");
        Assert.Equal(12, heavy.Served);
        Assert.Equal(4, light.Served);
    }

    /// <summary>
    /// Concurrent clients: the destination that holds each request for <see cref="SlowAnswer"/> has one in flight while
    /// the others finish theirs, so it gets clearly fewer: less than half of what each fast one gets (a third each if even).
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task LeastRequests_SlowDestinationGetsClearlyFewer(string mode)
    {
        await using var slow = DestinationOrigin.Start("S", SlowAnswer);
        await using var fast = DestinationOrigin.Start("F");
        await using var other = DestinationOrigin.Start("O");
        await using var proxy = await TestHosts.StartProxyAsync($"{slow.Url};{fast.Url};{other.Url}", mode, "balancing=leastRequests");

        await RunConcurrentClientsAsync(proxy, clients: 3, requests: 90);

        Assert.True(
            fast.Served > 0 && other.Served > 0 && 2 * slow.Served < Math.Min(fast.Served, other.Served),
            $"Expected the slow destination under half of each fast one: slow {slow.Served}, fast {fast.Served} and {other.Served}");
    }

    /// <summary>Power of two choices: every destination is drawn and used, and the slow one gets less than half of what each fast one gets.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task PowerOfTwoChoices_EveryDestinationUsedSlowOneFewer(string mode)
    {
        await using var slow = DestinationOrigin.Start("S", SlowAnswer);
        await using var fast = DestinationOrigin.Start("F");
        await using var other = DestinationOrigin.Start("O");
        await using var proxy = await TestHosts.StartProxyAsync($"{slow.Url};{fast.Url};{other.Url}", mode, "balancing=powerOfTwoChoices");

        await RunConcurrentClientsAsync(proxy, clients: 3, requests: 90);

        Assert.True(
            slow.Served > 0 && fast.Served > 0 && other.Served > 0 && 2 * slow.Served < Math.Min(fast.Served, other.Served),
            $"Expected every destination used, the slow one under half of each fast one: slow {slow.Served}, fast {fast.Served} and {other.Served}");
    }

    /// <summary>The default, named: successive client connections take the destinations in turn, and keep theirs.</summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task RoundRobinPerConnection_ConnectionsTakeDestinationsInTurn(string mode)
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        await using var third = DestinationOrigin.Start("C");
        await using var proxy = await TestHosts.StartProxyAsync(
            $"{first.Url};{second.Url};{third.Url}", mode, "balancing=roundRobinPerConnection");

        var served = new List<string>();
        for (var connection = 0; connection < 6; connection++)
        {
            await using var client = await proxy.ConnectAsync();
            var names = new List<string>();
            for (var i = 0; i < 3; i++)
            {
                names.Add((await client.GetAsync($"/x?{connection}-{i}")).BodyText);
            }

            Assert.True(names.Distinct().Count() == 1, $"Connection {connection} was served by {string.Join(' ', names)}");
            served.Add(names[0]);
        }

        Assert.True(
            served.Take(3).Distinct().Count() == 3 && served.Skip(3).SequenceEqual(served.Take(3)),
            $"Expected the connections to rotate over the three destinations, got {string.Join(' ', served)}");
    }

    /// <summary>
    /// Runs <paramref name="clients"/> client connections at once, each sending requests one after the other until
    /// <paramref name="requests"/> responses have come back in all: every client stays busy to the end.
    /// </summary>
    private static async Task RunConcurrentClientsAsync(HostedApp proxy, int clients, int requests)
    {
        var started = 0;
        await Task.WhenAll(Enumerable.Range(0, clients).Select(async _ =>
        {
            await using var client = await proxy.ConnectAsync();
            int request;
            while ((request = Interlocked.Increment(ref started)) <= requests)
            {
                var response = await client.GetAsync($"/x?{request}");
                Assert.Equal(200, response.StatusCode);
            }
        }));
    }
}
