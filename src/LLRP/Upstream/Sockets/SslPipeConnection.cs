using System.Net.Security;
using System.Net.Sockets;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// The transport of a connection to an <c>https</c> destination: an authenticated <see cref="SslStream"/> behind the pipes
/// of <see cref="PipeConnection"/>, so the raw client reads and writes plaintext exactly as over a plain socket. The end
/// of the output sends TLS's close_notify, then half-closes the socket.
/// </summary>
internal sealed class SslPipeConnection : PipeConnection
{
    private readonly SslStream _stream;

    /// <param name="socket">The connected socket, owned by <paramref name="stream"/> from now on.</param>
    /// <param name="stream">The TLS stream over <paramref name="socket"/>, its handshake completed.</param>
    /// <param name="inlineScheduling">Run pipe continuations on the thread that completed the read or write.</param>
    public SslPipeConnection(Socket socket, SslStream stream, bool inlineScheduling)
        : base(socket, inlineScheduling)
    {
        _stream = stream;
        Start();
    }

    /// <summary>The protocol the destination chose by ALPN (RFC 7301); empty when it chose none.</summary>
    public SslApplicationProtocol ApplicationProtocol => _stream.NegotiatedApplicationProtocol;

    protected override ValueTask<int> WaitForDataAsync() => _stream.ReadAsync(Memory<byte>.Empty);

    protected override ValueTask<int> ReceiveAsync(Memory<byte> buffer) => _stream.ReadAsync(buffer);

    protected override ValueTask SendAsync(ReadOnlyMemory<byte> data) => _stream.WriteAsync(data);

    protected override async ValueTask ShutdownSendAsync()
    {
        await _stream.ShutdownAsync();
        Socket.Shutdown(SocketShutdown.Send);
    }

    protected override ValueTask ReleaseAsync() => _stream.DisposeAsync();
}
