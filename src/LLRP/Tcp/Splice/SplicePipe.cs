using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Splice;

/// <summary>
/// A kernel pipe that bytes pass through between two sockets with <c>splice(2)</c>; both ends are non-blocking. It is
/// taken from <see cref="SplicePipePool"/> only while bytes are in flight and returned empty.
/// </summary>
internal sealed unsafe class SplicePipe
{
    /// <summary>The most a splice moves at once: the default capacity of a Linux pipe (16 pages).</summary>
    public const int Capacity = 64 * 1024;

    private SplicePipe(int readEnd, int writeEnd)
    {
        ReadEnd = readEnd;
        WriteEnd = writeEnd;
    }

    public int ReadEnd { get; }

    public int WriteEnd { get; }

    /// <returns>The pipe, or null when the system refuses one (out of descriptors): the relay then copies.</returns>
    public static SplicePipe? Open()
    {
        var fds = stackalloc int[2];
        return LinuxCalls.Pipe(fds, LinuxCalls.ONonblock | LinuxCalls.OCloexec) == 0 ? new SplicePipe(fds[0], fds[1]) : null;
    }

    public void Close()
    {
        LinuxCalls.Close(ReadEnd);
        LinuxCalls.Close(WriteEnd);
    }
}
