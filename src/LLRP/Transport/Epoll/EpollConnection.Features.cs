using System.Buffers;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Transport.Epoll;

/// <summary>The features Kestrel and its connection middleware (TLS) look for, served by the connection itself.</summary>
internal sealed partial class EpollConnection
    : IConnectionIdFeature, IConnectionTransportFeature, IConnectionItemsFeature, IMemoryPoolFeature, IConnectionLifetimeFeature, IConnectionEndPointFeature
{
    public MemoryPool<byte> MemoryPool { get; }
}
