using System.Net;
using LLRP.Routing;
using LLRP.ProxyProtocol;
using LLRP.Routing.Destinations;

namespace LLRP.Tcp.Loop;

/// <summary>
/// What a <see cref="LoopRelay"/> knows of the one client connection it carries, from its acceptance to its end: made
/// new in one assignment when the relay begins a connection, so a relay taken again from its loop starts every field as
/// new, a field added here included. What the relay keeps from one connection to the next stays on the relay: its
/// directions' pooled parts, its callbacks, its place in the loop's lists, and the connect's value task source, whose
/// version goes on rising so that a stale awaiter never reads a later connection's result.
/// </summary>
internal struct RelayConnectionState(TcpRouteConnections connections, TcpRoute route, int clientFd, long start)
{
    public readonly TcpRouteConnections Connections = connections;
    public readonly TcpRoute Route = route;
    public readonly int ClientFd = clientFd;

    /// <summary>When the connection was accepted (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/>).</summary>
    public readonly long Start = start;

    /// <summary>The upstream connection's descriptor; -1 until a connect begins, and again once it is closed.</summary>
    public int UpstreamFd = -1;

    public RelayStep Step;

    /// <summary>The client's address; null when the route does not use it (<see cref="TcpRouteConnections.UsesClientAddress"/>).</summary>
    public IPEndPoint? Client;

    /// <summary>The address the client connected to, as its PROXY protocol header gave it; null to ask the socket.</summary>
    public IPEndPoint? Local;

    public ProxyHeader Received;
    public Destination? Destination;
    public IPEndPoint? Connecting;

    /// <summary>The cluster's PROXY protocol header for the upstream connection, until it is sent.</summary>
    public byte[] Header = [];

    /// <summary>When the PROXY protocol header or the connect times out (<see cref="Environment.TickCount64"/>).</summary>
    public long Deadline;

    /// <summary>When a byte last moved either way (<see cref="Environment.TickCount64"/>): the idle timeout runs from it.</summary>
    public long LastActivity;

    public int ClientSlot = -1;
    public int UpstreamSlot = -1;
    public TcpRelayEnd End;
    public long FromClient;
    public long ToClient;

    /// <summary>What epoll reported for the client's socket before the relay began: replayed when it begins, as if reported then.</summary>
    public uint ClientEvents;

    /// <inheritdoc cref="ClientEvents"/>
    public uint UpstreamEvents;
}
