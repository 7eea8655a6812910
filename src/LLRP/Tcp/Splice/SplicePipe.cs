using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Splice;

/// <summary>
/// A kernel pipe that bytes pass through between two sockets with <c>splice(2)</c>; both ends are non-blocking. It is
/// taken from <see cref="SplicePipePool"/> only while bytes are in flight and returned empty. A pipe may be widened to
/// <see cref="WideCapacity"/> for a direction whose destination takes its bytes in small steps; it stays wide in the pool.
/// </summary>
internal sealed unsafe class SplicePipe
{
    /// <summary>The most a splice moves at once: the default capacity of a Linux pipe (16 pages).</summary>
    public const int Capacity = 64 * 1024;

    /// <summary>A widened pipe's capacity: Linux's default <c>/proc/sys/fs/pipe-max-size</c>, the most a process may set unprivileged.</summary>
    public const int WideCapacity = 1024 * 1024;

    /// <summary>
    /// Wide pipes open at once in the process. Linux charges a pipe's capacity to its user, and once the user's pipes
    /// pass <c>/proc/sys/fs/pipe-user-pages-soft</c> (16,384 pages, 64 MiB, by default) every new pipe of that user gets
    /// two pages: the wide ones stay within a quarter of that default, and past it a pipe keeps <see cref="Capacity"/>.
    /// </summary>
    private const int MaxWide = 16;

    private static int s_wide;

    private SplicePipe(int readEnd, int writeEnd)
    {
        ReadEnd = readEnd;
        WriteEnd = writeEnd;
    }

    public int ReadEnd { get; }

    public int WriteEnd { get; }

    /// <summary>Whether the pipe holds <see cref="WideCapacity"/> (else <see cref="Capacity"/>).</summary>
    public bool IsWide { get; private set; }

    /// <returns>The pipe, or null when the system refuses one (out of descriptors): the relay then copies.</returns>
    public static SplicePipe? Open()
    {
        var fds = stackalloc int[2];
        return LinuxCalls.Pipe(fds, LinuxCalls.ONonblock | LinuxCalls.OCloexec) == 0 ? new SplicePipe(fds[0], fds[1]) : null;
    }

    /// <summary>Widens an empty pipe to <see cref="WideCapacity"/> unless it is wide already, the process holds its most wide pipes, or the system refuses.</summary>
    /// <returns>Whether the pipe is wide.</returns>
    public bool TryWiden()
    {
        if (IsWide)
        {
            return true;
        }

        if (Interlocked.Increment(ref s_wide) > MaxWide || LinuxCalls.Control(WriteEnd, LinuxCalls.FSetPipeSize, WideCapacity) < 0)
        {
            Interlocked.Decrement(ref s_wide);
            return false;
        }

        IsWide = true;
        return true;
    }

    public void Close()
    {
        if (IsWide)
        {
            IsWide = false;
            Interlocked.Decrement(ref s_wide);
        }

        LinuxCalls.Close(ReadEnd);
        LinuxCalls.Close(WriteEnd);
    }
}
