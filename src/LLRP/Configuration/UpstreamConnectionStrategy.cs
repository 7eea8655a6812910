namespace LLRP.Configuration;

/// <summary>How the raw client obtains upstream connections.</summary>
public enum UpstreamConnectionStrategy
{
    /// <summary>One upstream connection bound to each client connection, opened on its first request.</summary>
    PerClient,

    /// <summary>Idle upstream connections shared by all client connections, bounded per downstream.</summary>
    Pooled,
}
