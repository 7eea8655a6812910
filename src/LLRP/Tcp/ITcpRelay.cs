namespace LLRP.Tcp;

/// <summary>
/// One client connection relayed both ways with its upstream connection: the copy loop (<see cref="TcpRelay"/>) or the
/// spliced relay on an event loop (<see cref="Loop.LoopRelay"/>). What the handler counts and logs, and what the idle
/// timeouts' heartbeat (<see cref="TcpRelayTracker"/>) asks.
/// </summary>
internal interface ITcpRelay
{
    /// <summary>How the relay ended; <see cref="TcpRelayEnd.Closed"/> unless a reset, a timeout or an abort came first.</summary>
    TcpRelayEnd End { get; }

    /// <summary>Bytes read from the client and sent to the destination.</summary>
    long FromClient { get; }

    /// <summary>Bytes read from the destination and sent to the client.</summary>
    long ToClient { get; }

    /// <summary>Relays until both sides are done; the upstream connection is closed when it completes.</summary>
    Task RunAsync();

    /// <summary>Closes both sides when the relay has been idle for its timeout; <paramref name="now"/> is <see cref="Environment.TickCount64"/>.</summary>
    void OnHeartbeat(long now);
}
