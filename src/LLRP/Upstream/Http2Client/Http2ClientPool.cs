using System.Collections.Concurrent;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Upstream.Sockets;

namespace LLRP.Upstream.Http2Client;

/// <summary>Raw mode's HTTP/2 connections to destinations, per destination (<see cref="Http2DestinationConnections"/>); shared by every stream.</summary>
internal sealed class Http2ClientPool
{
    private readonly ConcurrentDictionary<DestinationEndpoint, Http2DestinationConnections> _destinations = new();
    private readonly Func<DestinationEndpoint, Http2DestinationConnections> _create;

    /// <param name="connector">Opens the connections.</param>
    /// <param name="maxResponseHeadSize">The most bytes a response's fields may take.</param>
    /// <param name="connectTimeout">Also the time a new connection has to send its SETTINGS.</param>
    public Http2ClientPool(IUpstreamConnectionFactory connector, int maxResponseHeadSize, TimeSpan connectTimeout)
        => _create = destination => new Http2DestinationConnections(destination, connector, maxResponseHeadSize, connectTimeout);

    /// <summary>A connection to <paramref name="destination"/> with a stream slot reserved, or why none could be had.</summary>
    public ValueTask<(Http2ClientConnection? Connection, ForwarderError Error)> AcquireAsync(DestinationEndpoint destination)
        => _destinations.GetOrAdd(destination, _create).AcquireAsync();
}
