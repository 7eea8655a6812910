using System.Collections.Concurrent;
using System.Diagnostics;

namespace LLRP.Bench.Processes;

/// <summary>
/// A long-running server in its own process group (see <see cref="IsolatedStartInfo"/>), so <see cref="Id"/>
/// is both its pid and its group. Its output goes to a log file; the last lines explain an early exit.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    private const int KeptLines = 20;

    private readonly Process _process;
    private readonly StreamWriter _log;
    private readonly ConcurrentQueue<string> _tail = new();
    private readonly Lock _logLock = new();
    private bool _logClosed;
    private string? _firstErrorLine;

    private ChildProcess(Process process, StreamWriter log)
    {
        _process = process;
        _log = log;
    }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    /// <summary>
    /// What best explains an exit: the first non-empty line on stderr (an error message, or the first line of an
    /// unhandled exception), else the last non-empty line printed.
    /// </summary>
    public string ExitReason => _firstErrorLine ?? _tail.LastOrDefault(line => line.Trim().Length > 0)?.Trim() ?? "(no output)";

    /// <param name="fileName">The program (looked up on PATH).</param>
    /// <param name="arguments">Its arguments.</param>
    /// <param name="environment">Variables added to the runner's environment.</param>
    /// <param name="cpus">A <c>taskset -c</c> CPU list, or null to leave the affinity inherited.</param>
    /// <param name="logPath">Where stdout and stderr go.</param>
    /// <param name="workingDirectory">Its working directory, created if missing; null for the runner's.</param>
    public static ChildProcess Start(
        string fileName,
        IEnumerable<string> arguments,
        IReadOnlyDictionary<string, string> environment,
        string? cpus,
        string logPath,
        string? workingDirectory = null)
    {
        var startInfo = IsolatedStartInfo.Create(fileName, arguments, cpus);
        if (workingDirectory is not null)
        {
            startInfo.WorkingDirectory = Directory.CreateDirectory(workingDirectory).FullName;
        }

        foreach (var (name, value) in environment)
        {
            startInfo.Environment[name] = value;
        }

        Directory.CreateDirectory(Path.GetDirectoryName(logPath)!);
        var log = new StreamWriter(logPath, append: true) { AutoFlush = true };
        log.WriteLine($"$ {string.Join(' ', startInfo.ArgumentList)}");
        var process = new Process { StartInfo = startInfo };
        var child = new ChildProcess(process, log);
        process.OutputDataReceived += (_, e) => child.Record(e.Data, isError: false);
        process.ErrorDataReceived += (_, e) => child.Record(e.Data, isError: true);
        process.Start();
        ChildProcessRegistry.Add(process.Id);
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>Waits for the process to exit, at most <paramref name="timeout"/>; true if it did.</summary>
    public async Task<bool> WaitForExitAsync(TimeSpan timeout)
    {
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cts.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>SIGTERM to the whole group, then SIGKILL after <paramref name="grace"/>; also reaps leftover workers.</summary>
    public async Task StopAsync(TimeSpan grace)
    {
        if (!_process.HasExited)
        {
            NativeMethods.Kill(-Id, NativeMethods.SigTerm);
            await WaitForExitAsync(grace);
        }

        NativeMethods.Kill(-Id, NativeMethods.SigKill);
        await WaitForExitAsync(TimeSpan.FromSeconds(5));
        ChildProcessRegistry.Remove(Id);
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync(TimeSpan.FromSeconds(5));
        _process.Dispose();
        lock (_logLock)
        {
            _logClosed = true;
            _log.Dispose();
        }
    }

    private void Record(string? line, bool isError)
    {
        if (line is null)
        {
            return;
        }

        if (isError && _firstErrorLine is null && line.Trim().Length > 0)
        {
            _firstErrorLine = line.Trim();
        }

        _tail.Enqueue(line);
        while (_tail.Count > KeptLines)
        {
            _tail.TryDequeue(out _);
        }

        lock (_logLock)
        {
            if (!_logClosed)
            {
                _log.WriteLine(line);
            }
        }
    }
}
