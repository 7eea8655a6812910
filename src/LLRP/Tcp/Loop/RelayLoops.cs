using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// The event loops the spliced relays run on, one per core: a relay's two sockets, its connect and its splices stay on one
/// loop's thread, so no readiness goes through a thread pool and no relay state is shared between threads. The relays
/// have loops of their own, not the epoll transport's: TCP routes splice with either transport, and a loop that only
/// relays never waits behind HTTP parsing. Relays go to the loops in turn.
/// </summary>
internal sealed class RelayLoops : IDisposable
{
    private readonly EventLoop[] _loops;
    private int _next;

    public RelayLoops()
    {
        _loops = new EventLoop[Environment.ProcessorCount];
        for (var i = 0; i < _loops.Length; i++)
        {
            _loops[i] = new EventLoop(i);
        }
    }

    public EventLoop Next() => _loops[(int)((uint)Interlocked.Increment(ref _next) % (uint)_loops.Length)];

    public void Dispose()
    {
        foreach (var loop in _loops)
        {
            loop.Dispose();
        }
    }
}
