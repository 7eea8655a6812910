using LLRP.Configuration;
using LLRP.Configuration.Routes;

namespace LLRP.Routing.Destinations;

/// <summary>
/// Chooses the destination of a client connection (<see cref="BalancingPolicy.RoundRobinPerConnection"/>) or of each
/// request (the other policies), among the available destinations of the current set that the request has not tried.
/// Weights count in <see cref="BalancingPolicy.WeightedRoundRobin"/> and as the divisor of the requests in flight in
/// <see cref="BalancingPolicy.LeastRequests"/> and <see cref="BalancingPolicy.PowerOfTwoChoices"/>.
/// Under <see cref="AvailableDestinationsPolicy.HealthyOrPanic"/>, when no destination is available every destination not
/// yet tried is a candidate again.
/// </summary>
internal sealed class LoadBalancer(DestinationRegistry registry, BalancingPolicy policy, AvailableDestinationsPolicy available = AvailableDestinationsPolicy.HealthyAndUnknown)
{
    /// <summary>The time given for a pick that sets health aside: every destination not tried is a candidate.</summary>
    private const long Panic = long.MaxValue;

    private readonly Lock _weighted = new();
    private uint _next;

    /// <summary>The destination for the next batch, or null when none is available.</summary>
    /// <param name="kept">The client connection's destination, kept while it is available under the per-connection policy.</param>
    /// <param name="tried">The destinations this batch already failed on, one bit per <see cref="Destination.Index"/>.</param>
    /// <param name="now"><see cref="Environment.TickCount64"/>.</param>
    public Destination? Pick(Destination? kept, ulong tried, long now)
    {
        var all = registry.Current;
        if (policy == BalancingPolicy.RoundRobinPerConnection
            && kept is not null
            && kept.Index < all.Length
            && ReferenceEquals(all[kept.Index], kept)
            && IsCandidate(kept, tried, now))
        {
            return kept;
        }

        var picked = Pick(all, tried, now);
        if (picked is null && available == AvailableDestinationsPolicy.HealthyOrPanic)
        {
            // Panic: nothing is healthy, so health is set aside; every destination not tried is a candidate.
            picked = Pick(all, tried, Panic);
        }

        return picked;
    }

    private Destination? Pick(Destination[] all, ulong tried, long now)
        => policy switch
        {
            BalancingPolicy.RoundRobin or BalancingPolicy.RoundRobinPerConnection => RoundRobin(all, tried, now),
            BalancingPolicy.LeastRequests => LeastRequests(all, tried, now),
            BalancingPolicy.PowerOfTwoChoices => PowerOfTwoChoices(all, tried, now),
            BalancingPolicy.WeightedRoundRobin => WeightedRoundRobin(all, tried, now),
            BalancingPolicy.Random => RandomChoice(all, tried, now),
            BalancingPolicy.FirstAlphabetical => FirstAlphabetical(all, tried, now),
        };

    /// <summary>A candidate drawn at random.</summary>
    private Destination? RandomChoice(Destination[] all, ulong tried, long now)
    {
        Span<int> candidates = stackalloc int[all.Length];
        var count = Candidates(all, tried, now, candidates);
        return count == 0 ? null : all[candidates[System.Random.Shared.Next(count)]];
    }

    /// <summary>The candidate whose name sorts first (ordinal, ignoring case): the others stand by in name order.</summary>
    private Destination? FirstAlphabetical(Destination[] all, ulong tried, long now)
    {
        Destination? first = null;
        foreach (var destination in all)
        {
            if (IsCandidate(destination, tried, now)
                && (first is null || string.Compare(destination.Name, first.Name, StringComparison.OrdinalIgnoreCase) < 0))
            {
                first = destination;
            }
        }

        return first;
    }

    /// <summary>The next candidate in turn: counted over the candidates, so the one after an unavailable destination does not take its turns too.</summary>
    private Destination? RoundRobin(Destination[] all, ulong tried, long now)
    {
        Span<int> candidates = stackalloc int[all.Length];
        var count = Candidates(all, tried, now, candidates);
        return count == 0 ? null : all[candidates[Turn(count)]];
    }

    /// <summary>The fewest requests in flight per unit of weight; the scan starts one candidate further each time, so ties rotate evenly.</summary>
    private Destination? LeastRequests(Destination[] all, ulong tried, long now)
    {
        Span<int> candidates = stackalloc int[all.Length];
        var count = Candidates(all, tried, now, candidates);
        if (count == 0)
        {
            return null;
        }

        var start = Turn(count);
        var best = all[candidates[start]];
        for (var i = 1; i < count; i++)
        {
            var destination = all[candidates[(start + i) % count]];
            if (IsLessLoaded(destination, best))
            {
                best = destination;
            }
        }

        return best;
    }

    private static Destination? PowerOfTwoChoices(Destination[] all, ulong tried, long now)
    {
        Span<int> candidates = stackalloc int[all.Length];
        var count = Candidates(all, tried, now, candidates);
        if (count <= 1)
        {
            return count == 0 ? null : all[candidates[0]];
        }

        var first = Random.Shared.Next(count);
        var second = Random.Shared.Next(count - 1);
        if (second >= first)
        {
            second++;
        }

        var (a, b) = (all[candidates[first]], all[candidates[second]]);
        return IsLessLoaded(b, a) ? b : a;
    }

    /// <summary>
    /// Smooth weighted round robin: each candidate's running weight grows by its weight, the largest is chosen and loses
    /// the sum of the weights, so a weight-3 and a weight-1 destination go A A B A, A A B A, ….
    /// </summary>
    private Destination? WeightedRoundRobin(Destination[] all, ulong tried, long now)
    {
        lock (_weighted)
        {
            Destination? best = null;
            var total = 0;
            foreach (var destination in all)
            {
                if (!IsCandidate(destination, tried, now))
                {
                    continue;
                }

                destination.CurrentWeight += destination.Weight;
                total += destination.Weight;
                if (best is null || destination.CurrentWeight > best.CurrentWeight)
                {
                    best = destination;
                }
            }

            if (best is not null)
            {
                best.CurrentWeight -= total;
            }

            return best;
        }
    }

    /// <summary>Writes the indexes of the available destinations not yet tried into <paramref name="candidates"/>; returns how many.</summary>
    private static int Candidates(Destination[] all, ulong tried, long now, Span<int> candidates)
    {
        var count = 0;
        for (var i = 0; i < all.Length; i++)
        {
            if (IsCandidate(all[i], tried, now))
            {
                candidates[count++] = i;
            }
        }

        return count;
    }

    /// <summary>The next turn among <paramref name="count"/> candidates.</summary>
    private int Turn(int count) => (int)((Interlocked.Increment(ref _next) - 1) % (uint)count);

    /// <summary>a's requests in flight per unit of weight are fewer than b's (compared without division).</summary>
    private static bool IsLessLoaded(Destination a, Destination b)
        => (long)a.ActiveRequests * b.Weight < (long)b.ActiveRequests * a.Weight;

    private static bool IsCandidate(Destination destination, ulong tried, long now)
        => (tried & (1UL << destination.Index)) == 0 && (now == Panic || destination.IsAvailable(now));
}
