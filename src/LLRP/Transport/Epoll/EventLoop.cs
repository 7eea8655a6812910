using System.Collections.Concurrent;
using System.Runtime.InteropServices;

namespace LLRP.Transport.Epoll;

/// <summary>
/// One thread around one epoll instance. An iteration waits for readiness, hands each ready socket to its handler (which
/// receives, and whose readers run inline), runs the work other threads posted, then flushes every socket the iteration
/// wrote to: what one iteration produced for a socket leaves in one gathered send. Registrations are edge-triggered
/// (<c>EPOLLET</c>) for input and output at once, made once per socket: no <c>epoll_ctl</c> per read or write (only
/// while nothing reads a socket's input is it set aside, and watched again after, <see cref="Rearm"/>), and the handler
/// reads until a short read, which is also what an edge requires. Sockets are registered and closed on the loop's
/// thread only, so a descriptor is never reused while the loop still acts on it.
/// A loop made with a gathering condition (the relay loops) pauses after an iteration that had work and found nothing
/// more, for as long as the condition says (<see cref="GatherPauseNs"/> for several connections), before it waits again: what arrives meanwhile is read
/// in one iteration, where a thread asleep in <c>epoll_wait</c> is woken by the first arrival, each wake an
/// inter-processor interrupt that the sending core pays (on a virtual machine, usually a VM exit) and that this core leaves its
/// idle state for. During the pause the thread is not on epoll's wait queue, so no arrival wakes it: its own timer
/// does.
/// </summary>
internal sealed unsafe class EventLoop : IDisposable
{
    private const int MaxEvents = 256;

    /// <summary>
    /// The gathering pause: 20 µs, which did better than 50 µs in requests/s through a TCP route with 32 keep-alive
    /// connections (docs/benchmarks.md, "Relay loops gather arrivals").
    /// </summary>
    public const long GatherPauseNs = 20_000;

    /// <summary>The timer slack of a gathering loop's thread (the kernel's default, 50 µs, would more than triple the pause).</summary>
    private const nuint GatherTimerSlackNs = 1_000;

    private const ulong WakeToken = ulong.MaxValue;
    private const uint SocketEvents = LinuxCalls.EpollIn | LinuxCalls.EpollOut | LinuxCalls.EpollRdHup | LinuxCalls.EpollEt;

    /// <summary><c>struct epoll_event</c> is packed on x86-64 (12 bytes), naturally aligned elsewhere (16).</summary>
    private static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    private static readonly int DataOffset = EventSize - sizeof(ulong);

    [ThreadStatic]
    private static EventLoop? t_current;

    private readonly int _epoll;
    private readonly int _wake;
    private readonly Thread _thread;
    private readonly ConcurrentQueue<(Action<object?> Work, object? State)> _posted = new();
    private readonly List<IReadinessHandler?> _handlers = [];
    private readonly List<uint> _generations = [];
    private readonly Stack<int> _freeSlots = new();
    private readonly List<IReadinessHandler> _flushes = [];
    private readonly CancellationTokenSource _stopped = new();
    private readonly Lock _wakeGate = new();
    private readonly Action<long>? _tick;
    private readonly Func<long>? _gathers;
    private readonly int _tickMs;
    private long _nextTick;
    private int _wakePending;
    private bool _wakeClosed;
    private volatile bool _stopping;

    /// <param name="tick">Called on the loop's thread every <paramref name="tickMs"/> milliseconds or a little later (the wait for
    /// readiness ends then), with <see cref="Environment.TickCount64"/>; null for none.</param>
    /// <param name="gathers">How long the loop pauses to gather arrivals now, in nanoseconds, 0 for not (asked on the loop's thread); null for never.</param>
    public EventLoop(int id, Action<long>? tick = null, int tickMs = 0, Func<long>? gathers = null)
    {
        Id = id;
        _tick = tick;
        _gathers = gathers;
        _tickMs = tickMs;
        _epoll = Check(LinuxCalls.EpollCreate(LinuxCalls.EpollCloexec), "epoll_create1");
        _wake = Check(LinuxCalls.EventFd(0, LinuxCalls.EfdCloexec | LinuxCalls.EfdNonblock), "eventfd");
        Control(LinuxCalls.EpollCtlAdd, _wake, LinuxCalls.EpollIn, WakeToken);
        _thread = new Thread(Run) { IsBackground = true, Name = $"LLRP epoll {id}" };
        _thread.Start();
    }

    /// <summary>The loop whose thread this is, or null.</summary>
    public static EventLoop? Current => t_current;

    public int Id { get; }

    public bool IsCurrent => t_current == this;

    /// <summary>
    /// Cancelled once the loop has stopped, after its registered handlers failed: work posted and not run then never runs.
    /// What waits for such work completes it here instead; a registration made after the stop runs at once.
    /// </summary>
    public CancellationToken Stopped => _stopped.Token;

    /// <summary>
    /// Counts the loop's iterations (a wait for events, their handling, the posted work and the flushes): work done with
    /// the same value ran in one iteration, before the sends its flushes asked for.
    /// </summary>
    public long Turn { get; private set; }

    /// <summary>Registers <paramref name="fd"/> for input and output readiness, edge-triggered; on the loop's thread only.</summary>
    public int Register(int fd, IReadinessHandler handler)
    {
        int slot;
        if (_freeSlots.TryPop(out slot))
        {
            _handlers[slot] = handler;
        }
        else
        {
            slot = _handlers.Count;
            _handlers.Add(handler);
            _generations.Add(0);
        }

        Control(LinuxCalls.EpollCtlAdd, fd, SocketEvents, Key(slot));
        return slot;
    }

    /// <summary>
    /// Registers <paramref name="fd"/> of <paramref name="slot"/> again, which makes epoll test its readiness anew: after a
    /// send the socket did not take whole, it reports <c>EPOLLOUT</c> at once if the socket has room again already, else on
    /// its next edge. With <paramref name="input"/> false it stops reporting input readiness (output readiness, the peer's
    /// end, hang-ups and errors stay reported): bytes that nobody reads now would each wake the loop for nothing, and the
    /// sender's core pays for each wake-up. Registered again with <paramref name="input"/> true, it reports input at once
    /// if bytes came meanwhile. On the loop's thread only.
    /// </summary>
    public void Rearm(int fd, int slot, bool input)
        => Control(LinuxCalls.EpollCtlMod, fd, input ? SocketEvents : SocketEvents & ~LinuxCalls.EpollIn, Key(slot));

    /// <summary>Hands <paramref name="slot"/>'s socket, registered already, to <paramref name="handler"/>, which gets its next events; on the loop's thread only.</summary>
    public void Hand(int slot, IReadinessHandler handler) => _handlers[slot] = handler;

    /// <summary>Forgets <paramref name="slot"/> before its socket is closed: an event already read for it is dropped.</summary>
    public void Unregister(int slot)
    {
        _handlers[slot] = null;
        _generations[slot]++;
        _freeSlots.Push(slot);
    }

    /// <summary>Runs <paramref name="work"/> now when on the loop's thread, else posts it.</summary>
    public void Run(Action<object?> work, object? state)
    {
        if (IsCurrent)
        {
            work(state);
        }
        else
        {
            Post(work, state);
        }
    }

    /// <summary>Runs <paramref name="work"/> on the loop's thread, in its next iteration.</summary>
    public void Post(Action<object?> work, object? state)
    {
        _posted.Enqueue((work, state));

        // From the loop's own thread no wake is written: its next wait does not block while work is queued.
        if (!IsCurrent && Interlocked.Exchange(ref _wakePending, 1) == 0)
        {
            // Under the gate, so that Dispose never closes the eventfd (whose number another socket may then take) between
            // this post's claim of the wake and its write.
            lock (_wakeGate)
            {
                if (!_wakeClosed)
                {
                    ulong one = 1;
                    LinuxCalls.Write(_wake, (byte*)&one, sizeof(ulong));
                }
            }
        }
    }

    /// <summary>Has <paramref name="handler"/> flushed at the end of this iteration (from another thread: the next).</summary>
    public void ScheduleFlush(IReadinessHandler handler)
    {
        if (IsCurrent)
        {
            _flushes.Add(handler);
        }
        else
        {
            Post(static state => t_current!._flushes.Add((IReadinessHandler)state!), handler);
        }
    }

    public void Dispose()
    {
        if (IsCurrent)
        {
            throw new InvalidOperationException("An event loop is stopped from another thread: its own would wait for itself.");
        }

        _stopping = true;
        Post(static _ => { }, null);
        _thread.Join();

        lock (_wakeGate)
        {
            _wakeClosed = true;
            LinuxCalls.Close(_wake);
        }

        LinuxCalls.Close(_epoll);
    }

    private static int Check(int result, string call)
        => result >= 0 ? result : throw new IOException($"{call} failed: errno {Marshal.GetLastPInvokeError()}.");

    /// <summary>What epoll gives back with <paramref name="slot"/>'s events: the slot and its generation, so an event read for a socket since closed is dropped.</summary>
    private ulong Key(int slot) => ((ulong)_generations[slot] << 32) | (uint)slot;

    private void Control(int operation, int fd, uint events, ulong data)
    {
        var registration = stackalloc byte[16];
        *(uint*)registration = events;
        *(ulong*)(registration + DataOffset) = data;
        Check(LinuxCalls.EpollCtl(_epoll, operation, fd, registration), "epoll_ctl");
    }

    private void Run()
    {
        t_current = this;
        if (_gathers is not null)
        {
            LinuxCalls.Prctl(LinuxCalls.PrSetTimerSlack, GatherTimerSlackNs);
        }

        var events = (byte*)NativeMemory.Alloc((nuint)(MaxEvents * EventSize));
        try
        {
            _nextTick = Environment.TickCount64 + _tickMs;
            var count = 0;
            while (!_stopping)
            {
                count = Wait(events, worked: count > 0);
                if (count < 0)
                {
                    Check(Marshal.GetLastPInvokeError() == LinuxCalls.EIntr ? 0 : -1, "epoll_wait");
                    continue;
                }

                for (var i = 0; i < count; i++)
                {
                    var entry = events + (i * EventSize);
                    Dispatch(*(uint*)entry, *(ulong*)(entry + DataOffset));
                }

                RunPosted();
                RunFlushes();
                RunTick();
                Turn++;
            }

            // Closing a socket unregisters it: the handlers are copied first.
            foreach (var handler in _handlers.ToArray())
            {
                handler?.Fail(new ObjectDisposedException(nameof(EventLoop)));
            }

            _stopped.Cancel();
        }
        finally
        {
            NativeMemory.Free(events);
        }
    }

    private void Dispatch(uint ready, ulong data)
    {
        if (data == WakeToken)
        {
            // Drained before the flag is cleared: a post after the clear writes again and wakes the next wait, a post before
            // it is run by this iteration's RunPosted. Cleared first, a post between the two had its write drained here and
            // left the flag set, so that no later post woke the loop again.
            ulong value;
            LinuxCalls.Read(_wake, (byte*)&value, sizeof(ulong));
            Volatile.Write(ref _wakePending, 0);
            return;
        }

        var slot = (int)(uint)data;
        if (slot < _handlers.Count && _generations[slot] == (uint)(data >> 32) && _handlers[slot] is { } handler)
        {
            try
            {
                handler.OnReady(ready);
            }
            catch (Exception e)
            {
                handler.Fail(e);
            }
        }
    }

    /// <summary>Waits for readiness; after an iteration that <paramref name="worked"/>, first gathers while the loop's condition holds.</summary>
    private int Wait(byte* events, bool worked)
    {
        var timeout = WaitMs();
        var pauseNs = timeout == 0 || !worked || _gathers is null ? 0 : _gathers();
        if (pauseNs <= 0)
        {
            return LinuxCalls.EpollWait(_epoll, events, MaxEvents, timeout);
        }

        var ready = LinuxCalls.EpollWait(_epoll, events, MaxEvents, 0);
        if (ready != 0)
        {
            return ready;
        }

        var pause = stackalloc long[2] { 0, pauseNs };
        LinuxCalls.NanoSleep(pause, null);
        return LinuxCalls.EpollWait(_epoll, events, MaxEvents, WaitMs());
    }

    /// <summary>How long the next wait for readiness may block: not at all while work is queued, until the next tick at most.</summary>
    private int WaitMs()
    {
        if (!_posted.IsEmpty)
        {
            return 0;
        }

        return _tick is null ? -1 : (int)Math.Clamp(_nextTick - Environment.TickCount64, 0, _tickMs);
    }

    private void RunTick()
    {
        if (_tick is null)
        {
            return;
        }

        var now = Environment.TickCount64;
        if (now >= _nextTick)
        {
            _nextTick = now + _tickMs;
            _tick(now);
        }
    }

    private void RunPosted()
    {
        // What is posted while these run waits for the next iteration (the eventfd woke it), so one iteration stays bounded.
        for (var count = _posted.Count; count > 0 && _posted.TryDequeue(out var item); count--)
        {
            item.Work(item.State);
        }
    }

    private void RunFlushes()
    {
        // A flush may complete a writer's wait, whose continuation writes to another socket: that one joins this list.
        for (var i = 0; i < _flushes.Count; i++)
        {
            var handler = _flushes[i];
            try
            {
                handler.Flush();
            }
            catch (Exception e)
            {
                handler.Fail(e);
            }
        }

        _flushes.Clear();
    }
}
