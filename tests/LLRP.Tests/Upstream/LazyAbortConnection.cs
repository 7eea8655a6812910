using System.IO.Pipelines;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Tests.Upstream;

/// <summary>A connection over in-memory pipes whose abort, like the socket transport's, does not touch the pipes at once.</summary>
internal sealed class LazyAbortConnection(IDuplexPipe transport) : ConnectionContext
{
    public override IDuplexPipe Transport { get; set; } = transport;

    public override string ConnectionId { get; set; } = "test";

    public override IFeatureCollection Features { get; } = new FeatureCollection();

    public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

    public override void Abort(ConnectionAbortedException abortReason)
    {
    }

    public override ValueTask DisposeAsync() => default;
}
