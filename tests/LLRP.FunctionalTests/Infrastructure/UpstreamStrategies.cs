namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>The values of the proxy's <c>upstreamConnections</c> key, as theory data.</summary>
public static class UpstreamStrategies
{
    public const string PerClient = "perClient";
    public const string Pooled = "pooled";

    public static TheoryData<string> All => new() { PerClient, Pooled };

    /// <summary>Every strategy crossed with every value of <paramref name="values"/>.</summary>
    public static TheoryData<string, T> Cross<T>(params T[] values)
    {
        var data = new TheoryData<string, T>();
        foreach (var strategy in new[] { PerClient, Pooled })
        {
            foreach (var value in values)
            {
                data.Add(strategy, value);
            }
        }

        return data;
    }

    /// <summary>Every strategy crossed with every pair of <paramref name="pairs"/>.</summary>
    public static TheoryData<string, T1, T2> Cross<T1, T2>(params (T1, T2)[] pairs)
    {
        var data = new TheoryData<string, T1, T2>();
        foreach (var strategy in new[] { PerClient, Pooled })
        {
            foreach (var (first, second) in pairs)
            {
                data.Add(strategy, first, second);
            }
        }

        return data;
    }
}
