using System.Globalization;

namespace LLRP.Bench.Processes;

/// <summary>
/// The runner's open-file limit (RLIMIT_NOFILE), which every process it starts inherits: bench.sh raises the soft limit,
/// and .NET raises its own soft limit to the hard one as it starts.
/// </summary>
public static class OpenFileLimit
{
    private const string Row = "Max open files";

    /// <summary>The soft limit, from /proc/self/limits; null when it is unlimited or cannot be read.</summary>
    public static long? Current()
    {
        var line = File.Exists("/proc/self/limits")
            ? File.ReadLines("/proc/self/limits").FirstOrDefault(l => l.StartsWith(Row, StringComparison.Ordinal))
            : null;
        var fields = line?[Row.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return fields is [var soft, ..] && long.TryParse(soft, NumberStyles.None, CultureInfo.InvariantCulture, out var limit)
            ? limit
            : null;
    }
}
