using System.Collections.Concurrent;
using System.Diagnostics;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// The proxy (<c>LLRP</c>) or the bundled origin (<c>LLRP.Downstream</c>) run as its own process from the test's output
/// directory, in a working directory of its own (its content root), with every line it writes to stdout and stderr kept in order.
/// </summary>
public sealed class AppProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _lines = new();

    private AppProcess(Process process) => _process = process;

    /// <summary>The process's id.</summary>
    public int Id => _process.Id;

    /// <summary>Every line written so far, stdout and stderr together, in the order they were read.</summary>
    public IReadOnlyList<string> Lines => [.. _lines];

    /// <summary>Starts the proxy with <paramref name="args"/> (<c>--key=value</c>) and the environment variables <paramref name="environment"/>.</summary>
    public static AppProcess StartProxy(string workingDirectory, IEnumerable<string> args, params (string Name, string Value)[] environment)
        => Start("LLRP", workingDirectory, args, environment);

    /// <summary>Starts the bundled origin with <paramref name="args"/> (<c>--key=value</c>).</summary>
    public static AppProcess StartOrigin(string workingDirectory, IEnumerable<string> args)
        => Start("LLRP.Downstream", workingDirectory, args, []);

    private static AppProcess Start(string app, string workingDirectory, IEnumerable<string> args, (string Name, string Value)[] environment)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, app + ".dll"));
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        var process = new Process { StartInfo = start };
        var started = new AppProcess(process);
        process.OutputDataReceived += (_, line) => started.Keep(line.Data);
        process.ErrorDataReceived += (_, line) => started.Keep(line.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return started;
    }

    /// <summary>Waits for the process to exit and for the last of its output; its exit code.</summary>
    public async Task<int> ExitCodeAsync()
    {
        await _process.WaitForExitAsync().WaitAsync(Deadline.Io);
        return _process.ExitCode;
    }

    /// <summary>Waits until a line containing <paramref name="text"/> has been written; that line.</summary>
    public async Task<string> LineAsync(string text)
    {
        await Deadline.UntilAsync(() => _lines.Any(line => line.Contains(text, StringComparison.Ordinal)) || _process.HasExited, $"A line with '{text}'");
        return _lines.FirstOrDefault(line => line.Contains(text, StringComparison.Ordinal))
            ?? throw new InvalidOperationException($"The process exited without writing '{text}':\n{string.Join('\n', _lines)}");
    }

    /// <summary>The port of the first address of the start-up line <c>… listening on http://host:port…</c> that begins with <paramref name="prefix"/>.</summary>
    public async Task<int> ListeningPortAsync(string prefix)
    {
        var line = await LineAsync(prefix);
        var address = line[(line.IndexOf(" on ", StringComparison.Ordinal) + 4)..].Split([',', ' '])[0];
        return new Uri(address).Port;
    }

    /// <summary>Sends SIGTERM, as a service manager or <c>docker stop</c> does.</summary>
    public Task TerminateAsync() => SignalAsync("TERM");

    /// <summary>Sends SIGHUP, as logrotate's <c>postrotate</c> does.</summary>
    public Task HangUpAsync() => SignalAsync("HUP");

    private async Task SignalAsync(string signal)
    {
        using var kill = Process.Start("kill", ["-" + signal, _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        await kill.WaitForExitAsync().WaitAsync(Deadline.Io);
    }

    private void Keep(string? line)
    {
        if (line is not null)
        {
            _lines.Enqueue(line);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }
}
