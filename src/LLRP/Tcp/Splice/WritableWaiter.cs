using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Splice;

/// <summary>
/// Waits until a socket has room to send, which .NET's sockets cannot await: a spliced relay whose destination is full
/// keeps its bytes in the pipe and waits here instead of copying them out. One thread around one epoll instance; each
/// wait is a one-shot <c>EPOLLOUT</c> registration (reported at once when the socket has room already). A wait ends at
/// the latest after <see cref="MaxWaitMs"/>, so that one on a socket closed meanwhile (whose registration the close
/// removed) does not hang: the relay's next splice then finds the socket closed, or waits again.
/// </summary>
internal sealed unsafe class WritableWaiter : IDisposable
{
    private const int MaxWaitMs = 1000;
    private const int MaxEvents = 64;
    private const uint EpollOneShot = 1u << 30;
    private const int EExist = 17;

    /// <summary><c>struct epoll_event</c> is packed on x86-64 (12 bytes), naturally aligned elsewhere (16).</summary>
    private static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    private readonly int _epoll;
    private readonly ConcurrentDictionary<ulong, (TaskCompletionSource Done, long Since)> _waits = new();
    private readonly Thread _thread;
    private ulong _lastToken;
    private volatile bool _stopping;

    public WritableWaiter()
    {
        _epoll = LinuxCalls.EpollCreate(LinuxCalls.EpollCloexec);
        if (_epoll < 0)
        {
            throw new InvalidOperationException($"epoll_create1 failed with error {Marshal.GetLastPInvokeError()}.");
        }

        _thread = new Thread(Run) { IsBackground = true, Name = "LLRP splice waits" };
        _thread.Start();
    }

    /// <returns>Done when <paramref name="socket"/> has room, is closed or failed, or after <see cref="MaxWaitMs"/>.</returns>
    public Task WaitAsync(Socket socket)
    {
        var token = Interlocked.Increment(ref _lastToken);
        var done = new TaskCompletionSource();
        _waits[token] = (done, Environment.TickCount64);
        var handle = socket.SafeHandle;
        var added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            var fd = (int)handle.DangerousGetHandle();
            var ev = stackalloc byte[16];
            *(uint*)ev = LinuxCalls.EpollOut | EpollOneShot;
            *(ulong*)(ev + EventSize - sizeof(ulong)) = token;
            if (LinuxCalls.EpollCtl(_epoll, LinuxCalls.EpollCtlAdd, fd, ev) != 0
                && (Marshal.GetLastPInvokeError() != EExist || LinuxCalls.EpollCtl(_epoll, LinuxCalls.EpollCtlMod, fd, ev) != 0))
            {
                // Not waitable (closed): the relay's next splice says why.
                _waits.TryRemove(token, out _);
                return Task.CompletedTask;
            }
        }
        catch (ObjectDisposedException)
        {
            _waits.TryRemove(token, out _);
            return Task.CompletedTask;
        }
        finally
        {
            if (added)
            {
                handle.DangerousRelease();
            }
        }

        return done.Task;
    }

    public void Dispose() => _stopping = true;

    private void Run()
    {
        var events = stackalloc byte[EventSize * MaxEvents];
        var swept = Environment.TickCount64;
        while (!_stopping)
        {
            var count = LinuxCalls.EpollWait(_epoll, events, MaxEvents, MaxWaitMs);
            for (var i = 0; i < count; i++)
            {
                var token = *(ulong*)(events + (i * EventSize) + EventSize - sizeof(ulong));
                if (_waits.TryRemove(token, out var wait))
                {
                    wait.Done.TrySetResult();
                }
            }

            var now = Environment.TickCount64;
            if (now - swept >= MaxWaitMs)
            {
                swept = now;
                foreach (var (token, wait) in _waits)
                {
                    if (now - wait.Since >= MaxWaitMs && _waits.TryRemove(token, out _))
                    {
                        wait.Done.TrySetResult();
                    }
                }
            }
        }

        LinuxCalls.Close(_epoll);
    }
}
