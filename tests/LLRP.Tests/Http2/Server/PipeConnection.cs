using System.IO.Pipelines;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Tests.Http2.Server;

/// <summary>A client connection over in-memory pipes: the test writes the client's bytes and reads the server's.</summary>
internal sealed class PipeConnection : ConnectionContext
{
    private readonly Pipe _toServer = new();
    private readonly Pipe _toClient = new();

    public PipeConnection() => Transport = new DuplexPipe(_toServer.Reader, _toClient.Writer);

    public override IDuplexPipe Transport { get; set; }

    public PipeWriter ClientOutput => _toServer.Writer;

    public PipeReader ClientInput => _toClient.Reader;

    public override string ConnectionId { get; set; } = "test";

    public override IFeatureCollection Features { get; } = new FeatureCollection();

    public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

    public override void Abort(ConnectionAbortedException abortReason) => _toServer.Writer.Complete();

    public override ValueTask DisposeAsync() => default;

    private sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}
