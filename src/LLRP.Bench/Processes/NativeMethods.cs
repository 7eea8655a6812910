using System.Runtime.InteropServices;

namespace LLRP.Bench.Processes;

/// <summary>The few libc calls .NET has no API for: signalling a whole process group.</summary>
internal static partial class NativeMethods
{
    public const int SigKill = 9;
    public const int SigTerm = 15;
    public const int ScClockTicks = 2;

    /// <summary><c>kill(2)</c>; a negative <paramref name="pid"/> signals the process group <c>-pid</c>.</summary>
    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    public static partial int Kill(int pid, int signal);

    /// <summary><c>sysconf(3)</c>; <see cref="ScClockTicks"/> gives the unit of /proc's CPU times.</summary>
    [LibraryImport("libc", EntryPoint = "sysconf")]
    public static partial nint SysConf(int name);
}
