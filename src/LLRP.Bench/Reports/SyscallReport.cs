using System.Globalization;
using System.Text;
using LLRP.Bench.Processes;
using LLRP.Bench.Results;

namespace LLRP.Bench.Reports;

/// <summary>results.md's "System calls" table: system calls and failed receives per request, and the transport of each LLRP contender.</summary>
public static class SyscallReport
{
    /// <summary>The most frequent calls listed per contender.</summary>
    private const int Listed = 6;

    public static void Write(StringBuilder text, RunResult run)
    {
        text.Append("\n## System calls\n\n");
        text.Append(CultureInfo.InvariantCulture, $"After each round's GET 10 B window (never inside it), `wrk` runs the same shape again; a second later, its connections open, `strace -c -f -p <the contender's pids>` counts for {SyscallProbe.Window.TotalSeconds} s on every thread; ");
        text.Append("system calls counted (the load's, and whatever else ran meanwhile) ÷ requests the origin received meanwhile (its request count read after strace attached and before it stopped). ");
        text.Append(CultureInfo.InvariantCulture, $"Failed receives: errors (EAGAIN) of {string.Join(", ", SyscallSummary.Receives.Select(name => $"`{name}`"))} ÷ requests. ");
        text.Append("Tracing slows the contender, which changes how often a receive finds nothing: compare contenders, not with an untraced run. ");
        text.Append("Transport: what the LLRP contender's startup report names. Medians (min–max) over rounds; the calls listed are summed over rounds ÷ requests. strace's own tables: strace/.\n\n");
        text.Append("| contender | transport | syscalls/req | failed receives/req | most frequent (per request) |\n");
        text.Append("|---|---|---:|---:|---|\n");
        foreach (var contender in run.Measured)
        {
            var own = run.SyscallSamples.Where(s => s.Contender == contender.Name).ToList();
            if (own.Count == 0)
            {
                continue;
            }

            var total = Spread.Of(own.Select(s => s.PerRequest))!.Value;
            var failed = Spread.Of(own.Select(s => s.FailedReceivesPerRequest))!.Value;
            var requests = (double)own.Sum(s => s.Requests);
            var frequent = own.SelectMany(s => s.Summary.Calls)
                .GroupBy(call => call.Name)
                .Select(group => (Name: group.Key, Calls: group.Sum(call => call.Calls), Errors: group.Sum(call => call.Errors)))
                .OrderByDescending(call => call.Calls)
                .Take(Listed)
                .Select(call => string.Create(CultureInfo.InvariantCulture, $"`{call.Name}` {Units.Decimal(call.Calls / requests, 2)}{(call.Errors > 0 ? $" ({Units.Decimal(call.Errors / requests, 2)} failed)" : "")}"));
            text.Append(CultureInfo.InvariantCulture, $"| {contender.Name} ");
            text.Append(CultureInfo.InvariantCulture, $"| {run.Transports.GetValueOrDefault(contender.Name, "—")} ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Decimal(total.Median, 2)} ({Units.Decimal(total.Min, 2)}–{Units.Decimal(total.Max, 2)}) ");
            text.Append(CultureInfo.InvariantCulture, $"| {Units.Decimal(failed.Median, 2)} ({Units.Decimal(failed.Min, 2)}–{Units.Decimal(failed.Max, 2)}) ");
            text.Append(CultureInfo.InvariantCulture, $"| {string.Join(", ", frequent)} |\n");
        }
    }
}
