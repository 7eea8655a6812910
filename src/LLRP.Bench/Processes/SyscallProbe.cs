using System.Diagnostics;

namespace LLRP.Bench.Processes;

/// <summary>
/// Counts the system calls of a contender's processes while a load runs: <c>strace -c -f -p PID…</c> is attached to every
/// thread of them before the load starts and stopped (SIGINT, which detaches it) after the load ends. Tracing slows the
/// traced process many times over, so the probe runs beside a measured window, never inside one.
/// </summary>
public static class SyscallProbe
{
    /// <summary>How long the load of a probe runs.</summary>
    public const int LoadSeconds = 3;

    private const int SigInt = 2;

    private static readonly TimeSpan _attachTimeout = TimeSpan.FromSeconds(10);

    /// <summary>True when strace is installed.</summary>
    public static bool IsAvailable => ExecutableSearch.IsOnPath("strace");

    /// <summary>
    /// Runs <paramref name="load"/> with strace attached to <paramref name="pids"/>; the summary strace wrote to
    /// <paramref name="outputPath"/> and the load's result, or why there is no summary.
    /// </summary>
    /// <param name="cpus">A <c>taskset -c</c> list for strace (the load CPU), or null.</param>
    public static async Task<(SyscallSummary? Summary, T Load, string? Error)> RunAsync<T>(
        IReadOnlyList<int> pids, string outputPath, string? cpus, Func<Task<T>> load, CancellationToken cancellationToken)
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
            var attached = await WaitUntilTracedAsync(pids, strace, cancellationToken);
            var result = await load();
            NativeMethods.Kill(strace.Id, SigInt);
            var exited = await strace.WaitForExitAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30), CancellationToken.None)
                .ContinueWith(t => t.IsCompletedSuccessfully, TaskScheduler.Default);
            if (!exited)
            {
                NativeMethods.Kill(-strace.Id, NativeMethods.SigKill);
                return (null, result, "strace did not stop within 30 s of SIGINT");
            }

            if (!attached)
            {
                return (null, result, $"strace did not attach within {_attachTimeout.TotalSeconds} s: {(await stderr).Trim()}");
            }

            try
            {
                return (StraceSummaryParser.Parse(await File.ReadAllTextAsync(outputPath, CancellationToken.None)), result, null);
            }
            catch (Exception e) when (e is FormatException or IOException)
            {
                return (null, result, $"strace -c output unreadable ({e.Message}): {(await stderr).Trim()}");
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
