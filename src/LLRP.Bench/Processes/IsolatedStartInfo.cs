using System.Diagnostics;

namespace LLRP.Bench.Processes;

/// <summary>
/// Start information for a program in a new session and process group (<c>setsid</c>), optionally pinned with
/// <c>taskset -c</c>. Both exec the program, so its pid is also its process-group id, and signalling the
/// group reaches any worker it forks. Its standard streams are redirected, so it never touches the terminal.
/// </summary>
public static class IsolatedStartInfo
{
    /// <param name="fileName">The program (looked up on PATH).</param>
    /// <param name="arguments">Its arguments.</param>
    /// <param name="cpus">A <c>taskset -c</c> CPU list, or null to leave the affinity inherited.</param>
    public static ProcessStartInfo Create(string fileName, IEnumerable<string> arguments, string? cpus)
    {
        var startInfo = new ProcessStartInfo("setsid")
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        if (cpus is not null)
        {
            startInfo.ArgumentList.Add("taskset");
            startInfo.ArgumentList.Add("-c");
            startInfo.ArgumentList.Add(cpus);
        }

        startInfo.ArgumentList.Add(fileName);
        foreach (var argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        return startInfo;
    }
}
