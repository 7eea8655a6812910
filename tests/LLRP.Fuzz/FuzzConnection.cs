using System.IO.Pipelines;
using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Fuzz;

/// <summary>
/// A client connection over in-memory pipes for <see cref="Http2ConnectionTarget"/>: the server reads what the target
/// writes into <see cref="ClientOutput"/> and writes into a pipe the target reads whole once the connection ended (it
/// never pushes back). <see cref="Abort"/> ends the server's input, as a closed socket would, and is remembered.
/// </summary>
internal sealed class FuzzConnection : ConnectionContext
{
    private readonly Pipe _toServer = new(new PipeOptions(pauseWriterThreshold: 0, useSynchronizationContext: false));
    private readonly Pipe _toClient = new(new PipeOptions(pauseWriterThreshold: 0, useSynchronizationContext: false));

    public FuzzConnection()
    {
        ServerInput = new WaitSignallingReader(_toServer.Reader);
        Transport = new DuplexPipe(ServerInput, _toClient.Writer);
    }

    public override IDuplexPipe Transport { get; set; }

    /// <summary>The server's side of the client's bytes, which tells when the server waits for more.</summary>
    public WaitSignallingReader ServerInput { get; }

    public PipeWriter ClientOutput => _toServer.Writer;

    public PipeReader ClientInput => _toClient.Reader;

    public bool Aborted { get; private set; }

    public override string ConnectionId { get; set; } = "fuzz";

    public override IFeatureCollection Features { get; } = new FeatureCollection();

    public override IDictionary<object, object?> Items { get; set; } = new Dictionary<object, object?>();

    public override EndPoint? RemoteEndPoint { get; set; } = new IPEndPoint(IPAddress.Loopback, 40000);

    public override EndPoint? LocalEndPoint { get; set; } = new IPEndPoint(IPAddress.Loopback, 9740);

    public override void Abort(ConnectionAbortedException abortReason)
    {
        Aborted = true;
        _toServer.Writer.Complete();
    }

    public override ValueTask DisposeAsync() => default;

    private sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}
