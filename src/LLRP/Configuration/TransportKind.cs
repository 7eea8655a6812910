namespace LLRP.Configuration;

/// <summary>What moves bytes between sockets and buffers (key <c>transport</c>).</summary>
public enum TransportKind
{
    /// <summary>Kestrel's sockets transport, over .NET's socket engine; raw mode's upstream connections over .NET sockets too.</summary>
    Sockets,

    /// <summary>LLRP's own event loops over epoll: reads only when readable, gathered sends, a request's two sockets on one loop.</summary>
    Epoll,
}
