using System.Runtime.InteropServices;
using LLRP.Bench;
using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Processes;
using LLRP.Bench.Reports;
using LLRP.Bench.Running;

if (args is ["--help"] or ["-h"])
{
    Console.WriteLine(BenchOptions.Usage);
    Console.WriteLine($"contenders: {string.Join(", ", ContenderCatalog.Create(BenchOptions.Parse([]), 8080).Select(c => c.Name))}");
    Console.WriteLine($"shapes: {string.Join(", ", LoadShapes.Default.Select(s => s.Name))}");
    Console.WriteLine($"shapes run only when named: {string.Join(", ", LoadShapes.All.Except(LoadShapes.Default).Select(s => s.Name))}");
    return 0;
}

BenchOptions options;
try
{
    options = BenchOptions.Parse(args);
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    Console.Error.WriteLine(BenchOptions.Usage);
    return 2;
}

using var cancellation = new CancellationTokenSource();
void Stop(PosixSignalContext context)
{
    if (!cancellation.IsCancellationRequested)
    {
        context.Cancel = true;
        Console.Error.WriteLine($"{context.Signal}: stopping, writing partial results (repeat to quit at once)");
        cancellation.Cancel();
    }
}

using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
using var hangUp = PosixSignalRegistration.Create(PosixSignal.SIGHUP, Stop);
AppDomain.CurrentDomain.ProcessExit += (_, _) => ChildProcessRegistry.KillAll();

try
{
    var run = await BenchmarkRunner.RunAsync(options, cancellation.Token);
    var directory = options.ResultsDirectory;
    var markdown = MarkdownReport.Write(run);
    await File.WriteAllTextAsync(Path.Combine(directory, "results.md"), markdown, CancellationToken.None);
    CrankJsonReport.Write(run, directory);
    await File.WriteAllTextAsync(Path.Combine(directory, "chart.svg"), SvgChart.Write(run), CancellationToken.None);
    Console.WriteLine(markdown);
    Console.Error.WriteLine($"results: {Path.Combine(directory, "results.md")}, results.json, crank/*.json, chart.svg");
    return run.Interrupted ? 130 : 0;
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}
catch (InvalidOperationException e)
{
    Console.Error.WriteLine(e.Message);
    return 1;
}
finally
{
    ChildProcessRegistry.KillAll();
}
