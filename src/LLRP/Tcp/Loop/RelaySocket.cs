using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>One socket of a <see cref="LoopRelay"/> as its loop sees it: what epoll reports for it goes to the relay, saying which side it is.</summary>
internal sealed class RelaySocket(LoopRelay relay, bool client) : IReadinessHandler
{
    public void OnReady(uint events) => relay.OnReady(client, events);

    /// <summary>Nothing is sent through the loop's flushes: the splices send as they go.</summary>
    public void Flush()
    {
    }

    public void Fail(Exception error) => relay.Abort();
}
