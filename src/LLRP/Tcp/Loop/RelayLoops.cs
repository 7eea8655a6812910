namespace LLRP.Tcp.Loop;

/// <summary>
/// The event loops the spliced relays run on, one per core. A client connection lives its whole life on one loop: the
/// loop's own listening socket of its route accepts it (<see cref="LoopListener"/>), and the loop reads its PROXY protocol
/// header, opens its upstream connection and splices both ways (<see cref="LoopRelay"/>), with no thread pool between a
/// readiness and what follows it and no relay state shared between threads. The relays have loops of their own, not the
/// epoll transport's: TCP routes splice with either transport, and a loop that only relays never waits behind HTTP parsing.
/// </summary>
internal sealed class RelayLoops : IDisposable
{
    private readonly RelayLoop[] _loops;

    public RelayLoops()
    {
        _loops = new RelayLoop[Environment.ProcessorCount];
        for (var i = 0; i < _loops.Length; i++)
        {
            _loops[i] = new RelayLoop(i);
        }
    }

    public IReadOnlyList<RelayLoop> All => _loops;

    /// <summary>
    /// Whether each loop listens on a socket of its own (<c>SO_REUSEPORT</c>), as it does unless the system refuses the option;
    /// false makes the loops share one socket from the start, as they do after such a refusal. Read when a route's address is bound.
    /// </summary>
    public bool ReusePort { get; set; } = true;

    public void Dispose()
    {
        foreach (var loop in _loops)
        {
            loop.Dispose();
        }
    }
}
