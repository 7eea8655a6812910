using System.Globalization;

namespace LLRP.Bench.Processes;

/// <summary>
/// CPU time, resident and peak resident memory of every process in a process group (a proxy and, for nginx, its
/// worker), read from /proc. The peak (VmHWM) can be reset through <c>/proc/PID/clear_refs</c>.
/// </summary>
public static class ProcessGroupStats
{
    private static readonly double _ticksPerSecond = Math.Max(1, NativeMethods.SysConf(NativeMethods.ScClockTicks));

    /// <summary>user + system CPU time of the group's live processes.</summary>
    public static TimeSpan CpuTime(int group)
    {
        long ticks = 0;
        foreach (var (_, fields) in Members(group))
        {
            // Fields after the command: [0] state (field 3) ... [11] utime (14), [12] stime (15).
            ticks += long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
        }

        return TimeSpan.FromSeconds(ticks / _ticksPerSecond);
    }

    /// <summary>Sum of VmHWM over the group's processes, in bytes.</summary>
    public static long PeakResidentBytes(int group) => SumStatusBytes(group, "VmHWM:");

    /// <summary>Sum of VmRSS over the group's processes, in bytes.</summary>
    public static long ResidentBytes(int group) => SumStatusBytes(group, "VmRSS:");

    private static long SumStatusBytes(int group, string key)
    {
        long total = 0;
        foreach (var (pid, _) in Members(group))
        {
            total += ReadStatusKilobytes(pid, key) * 1024;
        }

        return total;
    }

    /// <summary>The pids of the group's live processes.</summary>
    public static List<int> Pids(int group) => [.. Members(group).Select(member => member.Pid)];

    /// <summary>Resets each process's VmHWM to its current RSS.</summary>
    public static void ResetPeakResident(int group)
    {
        foreach (var (pid, _) in Members(group))
        {
            TryProc(() => File.WriteAllText($"/proc/{pid}/clear_refs", "5"));
        }
    }

    private static IEnumerable<(int Pid, string[] Fields)> Members(int group)
    {
        var groupText = group.ToString(CultureInfo.InvariantCulture);
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
                && ReadStatFields(pid) is { } fields
                && fields[2] == groupText)
            {
                yield return (pid, fields);
            }
        }
    }

    /// <summary>The fields of /proc/PID/stat after the parenthesised command, or null if it is gone.</summary>
    private static string[]? ReadStatFields(int pid)
    {
        string? text = null;
        TryProc(() => text = File.ReadAllText($"/proc/{pid}/stat"));
        var end = text?.LastIndexOf(')') ?? -1;
        return end < 0 ? null : text![(end + 2)..].Split(' ');
    }

    private static long ReadStatusKilobytes(int pid, string key)
    {
        string[] lines = [];
        TryProc(() => lines = File.ReadAllLines($"/proc/{pid}/status"));
        var line = lines.FirstOrDefault(l => l.StartsWith(key, StringComparison.Ordinal));
        return line is null
            ? 0
            : long.Parse(line[key.Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture);
    }

    /// <summary>Runs a /proc access; a process that exits meanwhile simply counts for nothing.</summary>
    private static void TryProc(Action access)
    {
        try
        {
            access();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }
}
