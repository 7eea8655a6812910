namespace LLRP.Tcp.Loop;

/// <summary>The step a <see cref="LoopRelay"/>'s connection is at, in the order it takes them.</summary>
internal enum RelayStep
{
    ProxyHeader,
    Routing,
    Connecting,
    Relaying,
    Over,
}
