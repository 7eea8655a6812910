using System.Runtime.InteropServices;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The system calls the epoll transport makes itself, bound by source-generated P/Invoke over blittable arguments (no
/// marshalling allocation); each returns -1 on failure and the error is read with <see cref="Marshal.GetLastPInvokeError"/>.
/// Sockets are still made, bound, accepted, connected and closed by <see cref="System.Net.Sockets.Socket"/>, which never
/// sees an asynchronous operation on them, so .NET's socket engine never registers them.
/// </summary>
internal static unsafe partial class LinuxCalls
{
    public const int EpollCloexec = 0x80000;
    public const int EpollCtlAdd = 1;
    public const int EpollCtlMod = 3;
    public const uint EpollIn = 0x001;
    public const uint EpollOut = 0x004;
    public const uint EpollErr = 0x008;
    public const uint EpollHup = 0x010;
    public const uint EpollRdHup = 0x2000;
    public const uint EpollEt = 1u << 31;
    public const int EfdCloexec = 0x80000;
    public const int EfdNonblock = 0x800;
    public const int MsgNosignal = 0x4000;
    public const int MsgPeek = 2;
    public const int MsgMore = 0x8000;
    public const int EIntr = 4;
    public const int EAgain = 11;
    public const int EConnReset = 104;
    public const int EPipe = 32;

    [LibraryImport("libc", EntryPoint = "epoll_create1", SetLastError = true)]
    public static partial int EpollCreate(int flags);

    [LibraryImport("libc", EntryPoint = "epoll_ctl", SetLastError = true)]
    public static partial int EpollCtl(int epfd, int op, int fd, byte* @event);

    [LibraryImport("libc", EntryPoint = "epoll_wait", SetLastError = true)]
    public static partial int EpollWait(int epfd, byte* events, int maxEvents, int timeout);

    /// <summary><c>prctl(2)</c>'s option setting the calling thread's timer slack, in nanoseconds.</summary>
    public const int PrSetTimerSlack = 29;

    [LibraryImport("libc", EntryPoint = "nanosleep", SetLastError = true)]
    public static partial int NanoSleep(long* duration, long* remaining);

    [LibraryImport("libc", EntryPoint = "prctl", SetLastError = true)]
    public static partial int Prctl(int option, nuint value);

    [LibraryImport("libc", EntryPoint = "eventfd", SetLastError = true)]
    public static partial int EventFd(uint initval, int flags);

    [LibraryImport("libc", EntryPoint = "read", SetLastError = true)]
    public static partial nint Read(int fd, byte* buffer, nuint count);

    [LibraryImport("libc", EntryPoint = "write", SetLastError = true)]
    public static partial nint Write(int fd, byte* buffer, nuint count);

    [LibraryImport("libc", EntryPoint = "recv", SetLastError = true)]
    public static partial nint Receive(int fd, byte* buffer, nuint length, int flags);

    [LibraryImport("libc", EntryPoint = "sendmsg", SetLastError = true)]
    public static partial nint SendMessage(int fd, MessageHeader* message, int flags);

    [LibraryImport("libc", EntryPoint = "send", SetLastError = true)]
    public static partial nint Send(int fd, byte* buffer, nuint length, int flags);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);

    /// <summary><c>ioctl(fd, FIONREAD, &amp;count)</c>: the bytes a receive would return now.</summary>
    [LibraryImport("libc", EntryPoint = "ioctl", SetLastError = true)]
    public static partial int BytesAvailable(int fd, nuint request, int* count);

    public const nuint FionRead = 0x541B;

    public const uint SpliceMove = 1;
    public const uint SpliceNonblock = 2;
    public const int ONonblock = 0x800;
    public const int OCloexec = 0x80000;

    /// <summary><c>splice(2)</c> with no offsets: moves up to <paramref name="length"/> bytes between a pipe and a socket inside the kernel.</summary>
    [LibraryImport("libc", EntryPoint = "splice", SetLastError = true)]
    public static partial nint Splice(int fdIn, nint offsetIn, int fdOut, nint offsetOut, nuint length, uint flags);

    /// <summary><c>pipe2(2)</c>: <paramref name="fds"/>[0] is the read end, [1] the write end.</summary>
    [LibraryImport("libc", EntryPoint = "pipe2", SetLastError = true)]
    public static partial int Pipe(int* fds, int flags);

    public const int FSetPipeSize = 1031;
    public const int FGetPipeSize = 1032;

    /// <summary><c>fcntl(fd, command, argument)</c> with an integer argument; with <see cref="FSetPipeSize"/> or <see cref="FGetPipeSize"/>, the pipe's capacity in bytes, or -1.</summary>
    [LibraryImport("libc", EntryPoint = "fcntl", SetLastError = true)]
    public static partial int Control(int fd, int command, int argument);

    public const int SolSocket = 1;
    public const int SoError = 4;

    /// <summary><c>getsockopt(fd, level, name, value, &amp;length)</c>: with <see cref="SoError"/>, the socket's pending error (an errno, 0 for none), which it clears.</summary>
    [LibraryImport("libc", EntryPoint = "getsockopt", SetLastError = true)]
    public static partial int GetSocketOption(int fd, int level, int name, int* value, uint* length);

    public const int EInProgress = 115;
    public const int EConnAborted = 103;
    public const int SockNonblock = 0x800;
    public const int SockCloexec = 0x80000;
    public const int SockStream = 1;
    public const int AfInet = 2;
    public const int AfInet6 = 10;
    public const int IpProtoTcp = 6;
    public const int TcpNoDelay = 1;
    public const int TcpNotSentLowWater = 25;
    public const int SoLinger = 13;
    public const int SoReusePort = 15;
    public const int ShutWrite = 1;
    public const int ShutBoth = 2;

    /// <summary>The size of <c>struct sockaddr_in6</c>, which also holds a <c>sockaddr_in</c>.</summary>
    public const int SocketAddressSize = 28;

    /// <summary><c>accept4(2)</c>: the next connection of a listening socket, or -1 (<see cref="EAgain"/> when none waits).</summary>
    [LibraryImport("libc", EntryPoint = "accept4", SetLastError = true)]
    public static partial int Accept(int fd, byte* address, uint* length, int flags);

    [LibraryImport("libc", EntryPoint = "socket", SetLastError = true)]
    public static partial int Socket(int domain, int type, int protocol);

    [LibraryImport("libc", EntryPoint = "connect", SetLastError = true)]
    public static partial int Connect(int fd, byte* address, uint length);

    [LibraryImport("libc", EntryPoint = "getsockname", SetLastError = true)]
    public static partial int GetSocketName(int fd, byte* address, uint* length);

    [LibraryImport("libc", EntryPoint = "shutdown", SetLastError = true)]
    public static partial int Shutdown(int fd, int how);

    [LibraryImport("libc", EntryPoint = "setsockopt", SetLastError = true)]
    public static partial int SetSocketOption(int fd, int level, int name, void* value, uint length);
}
