using System.IO.Pipelines;
using System.Net.Sockets;
using LLRP.Transport.Epoll;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Tcp.Splice;

/// <summary>
/// A client connection of a TCP route that relays with splice. Nothing reads its socket until asked: the relay splices
/// from it, and <see cref="Transport"/>, made on first use, reads only when read (the PROXY protocol header); the bytes it
/// read past the header (<see cref="ReadInput"/>) are forwarded before the first splice. Kestrel's abort (the end of the
/// shutdown timeout) closes the socket, which ends the relay.
/// </summary>
internal sealed class TcpRouteConnection : ConnectionContext, IConnectionSocketFeature
{
    private static long s_lastId;

    private readonly Socket _socket;
    private readonly FeatureCollection _features = new();
    private string? _id;
    private IDictionary<object, object?>? _items;
    private IDuplexPipe? _transport;

    public TcpRouteConnection(Socket socket)
    {
        _socket = socket;
        _features.Set<IConnectionSocketFeature>(this);
        LocalEndPoint = socket.LocalEndPoint;
        RemoteEndPoint = socket.RemoteEndPoint;
    }

    public Socket Socket => _socket;

    public override string ConnectionId
    {
        get => _id ??= "tcp-" + Interlocked.Increment(ref s_lastId).ToString(System.Globalization.CultureInfo.InvariantCulture);
        set => _id = value;
    }

    public override IFeatureCollection Features => _features;

    public override IDictionary<object, object?> Items
    {
        get => _items ??= new Dictionary<object, object?>();
        set => _items = value;
    }

    public override IDuplexPipe Transport
    {
        get => _transport ??= CreateTransport();
        set => _transport = value;
    }

    public override void Abort(ConnectionAbortedException abortReason) => _socket.Dispose();

    public override ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }

    private IDuplexPipe CreateTransport()
    {
        var stream = new NetworkStream(_socket, ownsSocket: false);
        return new DuplexPipe(
            PipeReader.Create(stream, new StreamPipeReaderOptions(leaveOpen: true)),
            PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: true)));
    }
}
