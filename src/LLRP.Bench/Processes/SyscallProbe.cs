using System.Diagnostics;

namespace LLRP.Bench.Processes;

/// <summary>
/// Counts the system calls of a contender's processes over a window of a load already running: <c>strace -c -f -p
/// PID…</c> is attached to every thread of them, a request count is read, and after the window read again before strace
/// is stopped (SIGINT, which detaches it). Attached once the load's connections are open, the count leaves their setup
/// out. Tracing slows the traced process many times over, so the probe runs beside a measured window, never inside one.
/// </summary>
public static class SyscallProbe
{
    /// <summary>How long strace counts.</summary>
    public static readonly TimeSpan Window = TimeSpan.FromSeconds(3);

    private const int SigInt = 2;

    private static readonly TimeSpan _attachTimeout = TimeSpan.FromSeconds(10);

    /// <summary>True when strace is installed.</summary>
    public static bool IsAvailable => ExecutableSearch.IsOnPath("strace");

    /// <summary>
    /// Attaches strace to <paramref name="pids"/> for <see cref="Window"/>; the summary strace wrote to
    /// <paramref name="outputPath"/> and the requests <paramref name="readRequestCount"/> counted meanwhile (its second
    /// reading less its first), or why there is none.
    /// </summary>
    /// <param name="cpus">A <c>taskset -c</c> list for strace (the load CPU), or null.</param>
    /// <param name="readRequestCount">Reads a running count of requests served (the origin's), each reading counting itself.</param>
    public static async Task<(SyscallSummary? Summary, long Requests, string? Error)> RunAsync(
        IReadOnlyList<int> pids, string outputPath, string? cpus, Func<Task<long>> readRequestCount, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(outputPath)!);
        File.Delete(outputPath);
        var startInfo = IsolatedStartInfo.Create("strace", ["-c", "-f", "-q", "-o", outputPath, .. pids.SelectMany(pid => new[] { "-p", pid.ToString(System.Globalization.CultureInfo.InvariantCulture) })], cpus);
        using var strace = Process.Start(startInfo) ?? throw new InvalidOperationException("could not start strace");
        ChildProcessRegistry.Add(strace.Id);
        strace.StandardInput.Close();
        var stderr = strace.StandardError.ReadToEndAsync(CancellationToken.None);
        _ = strace.StandardOutput.ReadToEndAsync(CancellationToken.None);
        try
        {
            if (!await WaitUntilTracedAsync(pids, strace, cancellationToken))
            {
                return (null, 0, $"strace did not attach within {_attachTimeout.TotalSeconds} s: {(await Stop(strace) ? await stderr : "")}".Trim());
            }

            var first = await readRequestCount();
            await Task.Delay(Window, cancellationToken);
            var requests = await readRequestCount() - first - 1;
            if (!await Stop(strace))
            {
                return (null, requests, "strace did not stop within 30 s of SIGINT");
            }

            try
            {
                return (StraceSummaryParser.Parse(await File.ReadAllTextAsync(outputPath, CancellationToken.None)), requests, null);
            }
            catch (Exception e) when (e is FormatException or IOException)
            {
                return (null, requests, $"strace -c output unreadable ({e.Message}): {(await stderr).Trim()}");
            }
        }
        finally
        {
            if (!strace.HasExited)
            {
                NativeMethods.Kill(-strace.Id, NativeMethods.SigKill);
            }

            ChildProcessRegistry.Remove(strace.Id);
        }
    }

    /// <summary>SIGINT: strace detaches and writes its summary; false if it has not exited 30 s later.</summary>
    private static async Task<bool> Stop(Process strace)
    {
        NativeMethods.Kill(strace.Id, SigInt);
        return await strace.WaitForExitAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30), CancellationToken.None)
            .ContinueWith(t => t.IsCompletedSuccessfully, TaskScheduler.Default);
    }

    /// <summary>Waits until every thread of <paramref name="pids"/> has a tracer (/proc/PID/task/TID/status TracerPid); false on timeout or if strace exits.</summary>
    private static async Task<bool> WaitUntilTracedAsync(IReadOnlyList<int> pids, Process strace, CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < _attachTimeout && !strace.HasExited)
        {
            if (pids.All(IsTraced))
            {
                return true;
            }

            await Task.Delay(50, cancellationToken);
        }

        return false;
    }

    private static bool IsTraced(int pid)
    {
        try
        {
            return Directory.EnumerateDirectories($"/proc/{pid}/task").All(task => File.ReadLines(Path.Combine(task, "status"))
                .FirstOrDefault(line => line.StartsWith("TracerPid:", StringComparison.Ordinal)) is { } line
                && line["TracerPid:".Length..].Trim() != "0");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return true;
        }
    }
}
