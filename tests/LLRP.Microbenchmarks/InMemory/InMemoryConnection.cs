using System.IO.Pipelines;
using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Microbenchmarks.InMemory;

/// <summary>A transport connection over in-memory pipes.</summary>
internal sealed class InMemoryConnection(IDuplexPipe transport) : ConnectionContext
{
    public override IDuplexPipe Transport { get; set; } = transport;

    public override string ConnectionId { get; set; } = "in-memory";

    public override IFeatureCollection Features { get; } = new FeatureCollection();

    public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

    public override EndPoint? RemoteEndPoint { get; set; } = new IPEndPoint(IPAddress.Loopback, 40000);

    public override void Abort(ConnectionAbortedException abortReason)
    {
        Transport.Input.Complete(abortReason);
        Transport.Output.Complete(abortReason);
    }

    public override ValueTask DisposeAsync() => default;
}
