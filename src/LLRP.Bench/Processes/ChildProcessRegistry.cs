using System.Globalization;

namespace LLRP.Bench.Processes;

/// <summary>
/// Every live process group the runner started, so that all of them die with it: killed in-process on exit or
/// signal, and listed in <c>children.pids</c> for scripts/bench.sh to kill should the runner itself be killed.
/// The file is rewritten on every change, so it never names a finished group whose id could be reused.
/// </summary>
public static class ChildProcessRegistry
{
    private static readonly HashSet<int> _groups = [];
    private static readonly Lock _lock = new();
    private static string? _pidFile;

    /// <summary>Where the live process-group ids are kept, one per line.</summary>
    public static void UsePidFile(string path)
    {
        lock (_lock)
        {
            _pidFile = path;
            Save();
        }
    }

    public static void Add(int processGroup)
    {
        lock (_lock)
        {
            _groups.Add(processGroup);
            Save();
        }
    }

    public static void Remove(int processGroup)
    {
        lock (_lock)
        {
            _groups.Remove(processGroup);
            Save();
        }
    }

    /// <summary>SIGKILLs every registered group.</summary>
    public static void KillAll()
    {
        lock (_lock)
        {
            foreach (var group in _groups)
            {
                NativeMethods.Kill(-group, NativeMethods.SigKill);
            }

            _groups.Clear();
            Save();
        }
    }

    private static void Save()
    {
        if (_pidFile is not null)
        {
            File.WriteAllLines(_pidFile, _groups.Select(g => g.ToString(CultureInfo.InvariantCulture)));
        }
    }
}
