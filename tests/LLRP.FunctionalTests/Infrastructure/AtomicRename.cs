using System.ComponentModel;
using System.Runtime.InteropServices;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// rename(2) itself, for what <see cref="File.Move(string, string, bool)"/> refuses: a symbolic link to a directory renamed over
/// another one in one step, as the kubelet swaps a ConfigMap volume's <c>..data</c> link.
/// </summary>
public static class AtomicRename
{
    /// <summary>Renames <paramref name="source"/> to <paramref name="destination"/>, replacing it.</summary>
    /// <exception cref="Win32Exception">rename(2) failed.</exception>
    public static void Replace(string source, string destination)
    {
        if (rename(source, destination) != 0)
        {
            throw new Win32Exception(Marshal.GetLastPInvokeError(), $"rename({source}, {destination}) failed");
        }
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int rename(string source, string destination);
}
