using System.Diagnostics;

namespace LLRP.Bench.Processes;

/// <summary>Runs a short-lived tool (wrk, curl) in its own process group, bounded in time.</summary>
public static class Command
{
    /// <param name="fileName">The program.</param>
    /// <param name="arguments">Its arguments.</param>
    /// <param name="cpus">A <c>taskset -c</c> CPU list, or null to leave the affinity inherited.</param>
    /// <param name="timeout">After this the whole group is killed and <see cref="CommandResult.TimedOut"/> is true.</param>
    /// <param name="cancellationToken">Kills the group and throws when cancelled.</param>
    public static async Task<CommandResult> RunAsync(
        string fileName, IEnumerable<string> arguments, string? cpus, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var startInfo = IsolatedStartInfo.Create(fileName, arguments, cpus);
        using var process = Process.Start(startInfo) ?? throw new InvalidOperationException($"could not start {fileName}");
        ChildProcessRegistry.Add(process.Id);
        process.StandardInput.Close();
        var stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeoutSource.CancelAfter(timeout);
        var exitCode = -1;
        try
        {
            await process.WaitForExitAsync(timeoutSource.Token);
            exitCode = process.ExitCode;
        }
        catch (OperationCanceledException)
        {
            NativeMethods.Kill(-process.Id, NativeMethods.SigKill);
            await process.WaitForExitAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(5), CancellationToken.None);
            cancellationToken.ThrowIfCancellationRequested();
        }
        finally
        {
            ChildProcessRegistry.Remove(process.Id);
        }

        return new CommandResult(exitCode, await stdout, await stderr);
    }
}
