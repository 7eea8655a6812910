using System.Diagnostics;

namespace LLRP.FaultRun;

/// <summary>The <c>connections</c> command: a <see cref="ConnectionLimitRun"/> against a running proxy, with its gauges read from the admin listener.</summary>
internal static class ConnectionLimitCommand
{
    public const string RejectedConnections = "llrp_client_rejected_connections_total";

    public static async Task<int> RunAsync(int proxyPort, int destinationPort, string adminUrl, int limit, int over)
    {
        var tally = new FaultTally();
        await using var destination = new FaultingDestination(destinationPort, 0, 1, tally);
        using var gauges = new ProxyGauges(adminUrl);
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(10));
        var run = new ConnectionLimitRun(proxyPort);
        var clock = Stopwatch.StartNew();
        await run.RunAsync(limit, over, timeout.Token);
        var elapsed = clock.Elapsed;
        var held = await gauges.ReadAsync(ProxyGauges.ClientConnections);
        var rejected = await gauges.ReadAsync(RejectedConnections);
        run.CloseAll();
        var leaked = await gauges.WaitForZeroAsync(ProxyGauges.ClientConnections, TimeSpan.FromSeconds(30));

        Console.WriteLine($"limit={limit} opened={limit + over} served={run.Served} refused_503={run.Refused} duration_s={elapsed.TotalSeconds:F1}");
        Console.WriteLine($"gauge_while_held={held} rejected_counter={rejected} gauge_after_close={leaked} mismatches={tally.Mismatches}");
        foreach (var problem in run.Problems.Concat(tally.Problems))
        {
            Console.WriteLine($"problem: {problem}");
        }

        return run.Served == limit && run.Refused == over && held == limit && rejected == over && leaked == 0 && tally.Mismatches == 0 ? 0 : 1;
    }
}
