namespace LLRP.Bench.Processes;

/// <summary>Finds installed programs the way the scripts do: on PATH, plus /usr/sbin where Debian puts nginx and HAProxy.</summary>
public static class ExecutableSearch
{
    public static bool IsOnPath(string program)
        => (Environment.GetEnvironmentVariable("PATH") ?? "")
            .Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Append("/usr/sbin")
            .Any(directory => File.Exists(Path.Combine(directory, program)));
}
