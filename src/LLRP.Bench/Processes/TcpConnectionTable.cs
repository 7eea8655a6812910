using System.Globalization;

namespace LLRP.Bench.Processes;

/// <summary>
/// Counts the established TCP connections some processes hold to a remote port: their sockets' inodes come from the
/// <c>socket:[inode]</c> links in /proc/PID/fd, each socket's state and remote address from /proc/net/tcp and tcp6.
/// </summary>
public static class TcpConnectionTable
{
    /// <summary>The kernel's TCP_ESTABLISHED, as /proc/net/tcp writes it.</summary>
    private const string Established = "01";

    private static readonly string[] _tables = ["/proc/net/tcp", "/proc/net/tcp6"];

    public static int CountEstablished(IEnumerable<int> pids, int remotePort)
    {
        var inodes = new HashSet<long>();
        foreach (var pid in pids)
        {
            foreach (var link in FileDescriptorLinks(pid))
            {
                if (link.StartsWith("socket:[", StringComparison.Ordinal)
                    && long.TryParse(link.AsSpan(8, link.Length - 9), NumberStyles.None, CultureInfo.InvariantCulture, out var inode))
                {
                    inodes.Add(inode);
                }
            }
        }

        var count = 0;
        foreach (var table in _tables.Where(File.Exists))
        {
            foreach (var line in File.ReadLines(table).Skip(1))
            {
                if (TryParseLine(line, out var entry) && entry.State == Established && entry.RemotePort == remotePort && inodes.Contains(entry.Inode))
                {
                    count++;
                }
            }
        }

        return count;
    }

    /// <summary>
    /// Reads one row of /proc/net/tcp or tcp6, e.g.
    /// <c>0: 0100007F:C350 0100007F:1F91 01 00000000:00000000 00:00000000 00000000 0 0 1984562 1 ...</c>:
    /// the remote port (hexadecimal after the colon of the third field), the state (fourth) and the inode (tenth).
    /// </summary>
    private static bool TryParseLine(string line, out (int RemotePort, string State, long Inode) entry)
    {
        entry = default;
        var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 10)
        {
            return false;
        }

        var remote = fields[2];
        var colon = remote.LastIndexOf(':');
        if (colon < 0
            || !int.TryParse(remote.AsSpan(colon + 1), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var port)
            || !long.TryParse(fields[9], NumberStyles.None, CultureInfo.InvariantCulture, out var inode))
        {
            return false;
        }

        entry = (port, fields[3], inode);
        return true;
    }

    /// <summary>The targets of /proc/PID/fd's links; none when the process is gone.</summary>
    private static List<string> FileDescriptorLinks(int pid)
    {
        var links = new List<string>();
        try
        {
            foreach (var path in Directory.EnumerateFileSystemEntries($"/proc/{pid}/fd"))
            {
                try
                {
                    if (new FileInfo(path).LinkTarget is { } target)
                    {
                        links.Add(target);
                    }
                }
                catch (IOException)
                {
                    // The descriptor closed between the listing and the read.
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }

        return links;
    }
}
