using System.Buffers.Binary;
using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// An HTTP/2 client connection at the frame level (RFC 9113 §4, §6), for what HttpClient will not send: connection-specific
/// fields, a <c>Host</c> beside <c>:authority</c>, CONNECT, resets and stream floods. Field blocks are encoded as HPACK
/// literals without indexing (RFC 7541 §6.2.2), never Huffman-coded.
/// </summary>
public sealed class Http2Wire : IAsyncDisposable
{
    public const byte Data = 0x0, Headers = 0x1, RstStream = 0x3, Settings = 0x4, Ping = 0x6, GoAway = 0x7, WindowUpdate = 0x8;
    public const byte EndStream = 0x1, EndHeaders = 0x4, Ack = 0x1;

    private readonly Socket _socket;
    private readonly NetworkStream _stream;

    private Http2Wire(Socket socket)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
    }

    /// <summary>The server's SETTINGS parameters, by identifier, once <see cref="ConnectAsync"/> returned.</summary>
    public Dictionary<int, uint> ServerSettings { get; } = [];

    /// <summary>Connects, sends the preface and an empty SETTINGS, and reads the server's SETTINGS.</summary>
    public static async Task<Http2Wire> ConnectAsync(int port)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await Deadline.RunAsync(token => socket.ConnectAsync("127.0.0.1", port, token), "Connecting");
        var wire = new Http2Wire(socket);
        await wire.SendRawAsync("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8.ToArray());
        await wire.SendFrameAsync(Settings, 0, 0, []);
        var settings = await wire.ReadFrameAsync();
        Assert.Equal(Settings, settings.Type);
        for (var i = 0; i + 6 <= settings.Payload.Length; i += 6)
        {
            wire.ServerSettings[BinaryPrimitives.ReadUInt16BigEndian(settings.Payload.AsSpan(i))] = BinaryPrimitives.ReadUInt32BigEndian(settings.Payload.AsSpan(i + 2));
        }

        return wire;
    }

    public Task SendHeadersAsync(int streamId, bool endStream, params (string Name, string Value)[] fields)
        => SendFrameAsync(Headers, (byte)(EndHeaders | (endStream ? EndStream : 0)), streamId, Encode(fields));

    public Task SendDataAsync(int streamId, byte[] data, bool endStream) => SendFrameAsync(Data, endStream ? EndStream : (byte)0, streamId, data);

    /// <summary>Resets a stream with CANCEL (0x8), as a client that gives up does.</summary>
    public Task SendResetAsync(int streamId)
    {
        var code = new byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(code, 0x8);
        return SendFrameAsync(RstStream, 0, streamId, code);
    }

    public async Task SendFrameAsync(byte type, byte flags, int streamId, byte[] payload)
    {
        var frame = new byte[9 + payload.Length];
        frame[0] = (byte)(payload.Length >> 16);
        frame[1] = (byte)(payload.Length >> 8);
        frame[2] = (byte)payload.Length;
        frame[3] = type;
        frame[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(5), streamId);
        payload.CopyTo(frame, 9);
        await SendRawAsync(frame);
    }

    public Task SendRawAsync(byte[] bytes) => Deadline.RunAsync(token => _stream.WriteAsync(bytes, token), "An HTTP/2 send");

    /// <summary>The next frame; SETTINGS are acknowledged and PINGs answered as they come, and returned too.</summary>
    public async Task<Frame> ReadFrameAsync()
    {
        var header = new byte[9];
        await Deadline.RunAsync(token => _stream.ReadExactlyAsync(header, token), "An HTTP/2 frame header");
        var length = (header[0] << 16) | (header[1] << 8) | header[2];
        var payload = new byte[length];
        await Deadline.RunAsync(token => _stream.ReadExactlyAsync(payload, token), "An HTTP/2 frame payload");
        var frame = new Frame(header[3], header[4], BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(5)) & int.MaxValue, payload);
        if (frame.Type == Settings && (frame.Flags & Ack) == 0)
        {
            await SendFrameAsync(Settings, Ack, 0, []);
        }

        return frame;
    }

    /// <summary>Reads frames until one of <paramref name="streamId"/> ends it (END_STREAM or RST_STREAM), or a GOAWAY ends the connection.</summary>
    public async Task<StreamOutcome> ReadStreamAsync(int streamId)
    {
        var outcome = new StreamOutcome();
        while (true)
        {
            var frame = await ReadFrameAsync();
            if (frame.Type == GoAway)
            {
                outcome.GoAwayError = BinaryPrimitives.ReadInt32BigEndian(frame.Payload.AsSpan(4));
                return outcome;
            }

            if (frame.StreamId != streamId)
            {
                continue;
            }

            switch (frame.Type)
            {
                case Headers:
                    outcome.Status ??= StatusOf(frame.Payload);
                    break;
                case Data:
                    outcome.Body.Append(Encoding.Latin1.GetString(frame.Payload));
                    break;
                case RstStream:
                    outcome.ResetError = BinaryPrimitives.ReadInt32BigEndian(frame.Payload);
                    return outcome;
            }

            if ((frame.Type == Headers || frame.Type == Data) && (frame.Flags & EndStream) != 0)
            {
                return outcome;
            }
        }
    }

    /// <summary>
    /// The <c>:status</c> of a response field block that starts with it, as Kestrel encodes it: an indexed static entry
    /// (RFC 7541 Appendix A: 8 to 14), else a literal with the static name 8 and a plain value.
    /// </summary>
    private static int StatusOf(byte[] block)
    {
        if ((block[0] & 0x80) != 0)
        {
            return (block[0] & 0x7f) switch { 8 => 200, 9 => 204, 10 => 206, 11 => 304, 12 => 400, 13 => 404, 14 => 500, var index => throw new InvalidDataException($"Static index {index} is not a :status.") };
        }

        var length = block[1] & 0x7f;
        return int.Parse(Encoding.ASCII.GetString(block, 2, length));
    }

    private static byte[] Encode((string Name, string Value)[] fields)
    {
        var block = new List<byte>();
        foreach (var (name, value) in fields)
        {
            block.Add(0x00);
            AddString(block, name);
            AddString(block, value);
        }

        return [.. block];
    }

    /// <summary>A string literal (RFC 7541 §5.2) with a 7-bit length prefix (§5.1).</summary>
    private static void AddString(List<byte> block, string text)
    {
        var bytes = Encoding.Latin1.GetBytes(text);
        var length = bytes.Length;
        if (length < 0x7f)
        {
            block.Add((byte)length);
        }
        else
        {
            block.Add(0x7f);
            length -= 0x7f;
            while (length >= 0x80)
            {
                block.Add((byte)((length & 0x7f) | 0x80));
                length >>= 7;
            }

            block.Add((byte)length);
        }

        block.AddRange(bytes);
    }

    public ValueTask DisposeAsync() => _stream.DisposeAsync();

    public readonly record struct Frame(byte Type, byte Flags, int StreamId, byte[] Payload);

    /// <summary>How a stream ended: its status and body, or the error code of its RST_STREAM or of the connection's GOAWAY.</summary>
    public sealed class StreamOutcome
    {
        public int? Status { get; set; }

        public StringBuilder Body { get; } = new();

        public int? ResetError { get; set; }

        public int? GoAwayError { get; set; }
    }
}
