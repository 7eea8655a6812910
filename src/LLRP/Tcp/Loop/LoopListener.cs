using System.Net.Sockets;
using System.Runtime.InteropServices;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// A TCP route's listening socket as one relay loop sees it: each input readiness accepts (<c>accept4</c>, non-blocking)
/// until none waits, and each connection accepted starts its life on this loop (<see cref="LoopRelay"/>). With
/// <c>SO_REUSEPORT</c> the socket is this loop's own and the kernel spreads the connections over the loops' sockets; else one
/// socket is registered with every loop, and whichever loop accepts first takes the connection.
/// </summary>
/// <param name="own">Whether the socket is this loop's alone (<c>SO_REUSEPORT</c>): then it is closed as soon as this loop stops accepting.</param>
internal sealed unsafe class LoopListener(RelayLoop home, TcpRouteConnections connections, Socket socket, bool own) : IReadinessHandler
{
    private int _slot = -1;

    public RelayLoop Home => home;

    private int Fd => (int)socket.SafeHandle.DangerousGetHandle();

    /// <summary>Starts accepting; on the loop's thread.</summary>
    public void Start() => _slot = home.Loop.Register(Fd, this);

    /// <summary>
    /// Stops accepting; on the loop's thread. A socket of this loop's own is closed at once (the connections the kernel
    /// queued on it meanwhile are reset, and the next are refused); a shared one by its owner, once no loop has it registered.
    /// </summary>
    public void Stop()
    {
        if (_slot < 0)
        {
            return;
        }

        // Its readiness, if any comes before the socket is closed (which takes it out of every epoll), is dropped.
        home.Loop.Unregister(_slot);
        _slot = -1;
        if (own)
        {
            socket.Dispose();
        }
    }

    public void OnReady(uint events)
    {
        var address = stackalloc byte[LinuxCalls.SocketAddressSize];
        while (_slot >= 0)
        {
            var length = (uint)LinuxCalls.SocketAddressSize;
            var fd = LinuxCalls.Accept(Fd, address, &length, LinuxCalls.SockNonblock | LinuxCalls.SockCloexec);
            if (fd < 0)
            {
                if (Marshal.GetLastPInvokeError() is LinuxCalls.EConnAborted or LinuxCalls.EIntr)
                {
                    // Reset before it was accepted: the next one.
                    continue;
                }

                // None waits, or out of descriptors: the next connection's readiness tries again.
                return;
            }

            // TCP_NODELAY comes from the listening socket: Linux copies it to the sockets it accepts.
            home.Rent().Begin(connections, fd, address);
        }
    }

    /// <summary>Nothing is sent through the loop's flushes.</summary>
    public void Flush()
    {
    }

    public void Fail(Exception error) => _slot = -1;
}
