using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Http2.Server;

/// <summary>The client connection's addresses, as every stream of it sees them (<see cref="Microsoft.AspNetCore.Http.HttpContext.Connection"/>).</summary>
internal sealed class ConnectionEndpoints(ConnectionContext connection) : IHttpConnectionFeature
{
    public string ConnectionId { get; set; } = connection.ConnectionId;

    public IPAddress? RemoteIpAddress { get; set; } = (connection.RemoteEndPoint as IPEndPoint)?.Address;

    public IPAddress? LocalIpAddress { get; set; } = (connection.LocalEndPoint as IPEndPoint)?.Address;

    public int RemotePort { get; set; } = (connection.RemoteEndPoint as IPEndPoint)?.Port ?? 0;

    public int LocalPort { get; set; } = (connection.LocalEndPoint as IPEndPoint)?.Port ?? 0;
}
