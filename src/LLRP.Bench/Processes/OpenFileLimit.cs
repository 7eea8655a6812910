using System.Globalization;

namespace LLRP.Bench.Processes;

/// <summary>
/// The runner's open-file limit (RLIMIT_NOFILE), which every process it starts inherits: the hard limit is what they
/// can use, since .NET raises its own soft limit to it as it starts (and HAProxy and nginx raise theirs as configured).
/// </summary>
public static class OpenFileLimit
{
    private const string Row = "Max open files";

    /// <summary>The hard limit, from /proc/self/limits; null when it is unlimited or cannot be read.</summary>
    public static long? Hard()
    {
        var line = File.Exists("/proc/self/limits")
            ? File.ReadLines("/proc/self/limits").FirstOrDefault(l => l.StartsWith(Row, StringComparison.Ordinal))
            : null;
        var fields = line?[Row.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return fields is [_, var hard, ..] && long.TryParse(hard, NumberStyles.None, CultureInfo.InvariantCulture, out var limit)
            ? limit
            : null;
    }
}
