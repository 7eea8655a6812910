using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Text;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// A client that writes exact bytes to the proxy and parses its responses strictly itself,
/// so that framing is observed as it is on the wire. Every operation is bounded by <see cref="Deadline.Io"/>.
/// </summary>
public sealed class RawHttpClient : IAsyncDisposable
{
    private readonly Socket _socket;
    private readonly Stream _stream;
    private readonly WireReader _reader;

    private RawHttpClient(Socket socket, Stream stream)
    {
        _socket = socket;
        _stream = stream;
        _reader = new WireReader(_stream);
    }

    /// <summary>The client's address and port, as the proxy sees them.</summary>
    public IPEndPoint LocalEndPoint => (IPEndPoint)_socket.LocalEndPoint!;

    /// <summary>Every byte received from the proxy so far.</summary>
    public byte[] Received => _reader.Received;

    public static async Task<RawHttpClient> ConnectAsync(int port)
    {
        var socket = await ConnectSocketAsync(port);
        return new RawHttpClient(socket, new NetworkStream(socket, ownsSocket: true));
    }

    /// <summary>
    /// Connects over TLS (SNI <c>localhost</c>, ALPN <c>http/1.1</c>), trusting exactly <paramref name="trusted"/>: the
    /// test's self-signed certificate.
    /// </summary>
    public static async Task<RawHttpClient> ConnectTlsAsync(int port, X509Certificate2 trusted)
    {
        var socket = await ConnectSocketAsync(port);
        var stream = new SslStream(new NetworkStream(socket, ownsSocket: true));
        try
        {
            await Deadline.RunAsync(token => new ValueTask(stream.AuthenticateAsClientAsync(new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                ApplicationProtocols = [SslApplicationProtocol.Http11],
                RemoteCertificateValidationCallback = (_, certificate, _, _) => certificate?.GetCertHashString() == trusted.Thumbprint,
            }, token)), "The TLS handshake");
        }
        catch
        {
            await stream.DisposeAsync();
            throw;
        }

        return new RawHttpClient(socket, stream);
    }

    public Task SendAsync(string text) => SendAsync(Encoding.Latin1.GetBytes(text));

    public Task SendAsync(ReadOnlyMemory<byte> bytes) => Deadline.RunAsync(token => _stream.WriteAsync(bytes, token), "A send");

    /// <summary>Sends <paramref name="bytes"/> in writes of random sizes from 1 to <paramref name="maxWrite"/> bytes.</summary>
    public async Task SendInPiecesAsync(ReadOnlyMemory<byte> bytes, Random random, int maxWrite)
    {
        while (!bytes.IsEmpty)
        {
            var size = Math.Min(bytes.Length, random.Next(1, maxWrite + 1));
            await SendAsync(bytes[..size]);
            bytes = bytes[size..];
        }
    }

    /// <summary>Half-closes the connection: the proxy sees the end of the request stream, and can still answer.</summary>
    public void ShutdownSend() => _socket.Shutdown(SocketShutdown.Send);

    /// <summary>Reads exactly <paramref name="count"/> bytes, such as a tunnel's.</summary>
    public Task<byte[]> ReadExactlyAsync(int count) => _reader.ReadExactlyAsync(count);

    /// <summary>The trailer section of the last chunked response body read (RFC 9112 §7.1.2).</summary>
    public IReadOnlyList<HttpField> LastTrailers => _reader.LastTrailers;

    /// <summary>Closes the connection with a TCP reset instead of a graceful close.</summary>
    public void Reset()
    {
        _socket.LingerState = new LingerOption(true, 0);
        _socket.Close();
    }

    /// <summary>Reads everything up to the proxy's close; a reset is an <see cref="IOException"/>.</summary>
    public Task<byte[]> ReadToEndAsync() => _reader.ReadToEndAsync();

    /// <summary>
    /// Reads the next response, interim (1xx) ones included, framing its body by RFC 9112 §6.3.
    /// The proxy closing or resetting before the response is complete is an <see cref="IOException"/>.
    /// </summary>
    public async Task<RawHttpResponse> ReadResponseAsync(string requestMethod = "GET")
        => await ReadBodyAsync(await ReadResponseHeadAsync(), requestMethod);

    /// <summary>Reads the next response's head only; <see cref="ReadBodyAsync"/> reads its body later.</summary>
    public async Task<HttpHead> ReadResponseHeadAsync()
        => await HttpHead.ReadAsync(_reader) ?? throw new EndOfStreamException("The proxy closed the connection where a response was expected.");

    /// <summary>Reads the body of the response whose head is <paramref name="head"/>, framed by RFC 9112 §6.3.</summary>
    public async Task<RawHttpResponse> ReadBodyAsync(HttpHead head, string requestMethod)
    {
        var framing = MessageFraming.OfResponse(head, requestMethod, RawHttpResponse.StatusCodeOf(head), out var contentLength);
        return new RawHttpResponse(head, framing, await MessageFraming.ReadBodyAsync(_reader, framing, contentLength));
    }

    /// <summary>Asserts that the proxy closes the connection (a close or a reset) without sending anything more.</summary>
    public async Task AssertClosedByPeerAsync()
    {
        byte[] rest;
        try
        {
            rest = await _reader.ReadToEndAsync();
        }
        catch (IOException e) when (e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionReset })
        {
            return;
        }

        Assert.True(rest.Length == 0, $"Expected the proxy to close the connection, but it sent: {Encoding.Latin1.GetString(rest)}");
    }

    public ValueTask DisposeAsync() => _stream.DisposeAsync();

    private static async Task<Socket> ConnectSocketAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await Deadline.RunAsync(token => socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port), token), "Connecting");
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        return socket;
    }
}
