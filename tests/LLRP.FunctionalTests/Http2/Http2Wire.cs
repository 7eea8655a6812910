using System.Buffers.Binary;
using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// An HTTP/2 client connection at the frame level (RFC 9113 §4, §6), for what HttpClient will not send: connection-specific
/// fields, a <c>Host</c> beside <c>:authority</c>, CONNECT, resets and stream floods; or the server end of one
/// (<see cref="AcceptAsync"/>), for a destination that answers frame by frame. Field blocks are encoded as HPACK
/// literals without indexing (RFC 7541 §6.2.2), never Huffman-coded.
/// </summary>
public sealed class Http2Wire : IAsyncDisposable
{
    public const byte Data = 0x0, Headers = 0x1, Priority = 0x2, RstStream = 0x3, Settings = 0x4, PushPromise = 0x5, Ping = 0x6, GoAway = 0x7, WindowUpdate = 0x8, Continuation = 0x9;
    public const byte EndStream = 0x1, EndHeaders = 0x4, Ack = 0x1, Padded = 0x8, PriorityFlag = 0x20;

    /// <summary>Error codes (RFC 9113 §7).</summary>
    public const int NoError = 0x0, ProtocolError = 0x1, FlowControlError = 0x3, StreamClosed = 0x5, FrameSizeError = 0x6, RefusedStream = 0x7, Cancel = 0x8, CompressionError = 0x9, EnhanceYourCalm = 0xb;

    /// <summary>SETTINGS parameters (RFC 9113 §6.5.2).</summary>
    public const ushort HeaderTableSize = 0x1, EnablePush = 0x2, MaxConcurrentStreams = 0x3, InitialWindowSize = 0x4, MaxFrameSize = 0x5;

    /// <summary>The connection preface a client opens with (RFC 9113 §3.4).</summary>
    public static byte[] Preface => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8.ToArray();

    private readonly Socket _socket;
    private readonly NetworkStream _stream;

    private Http2Wire(Socket socket)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
    }

    /// <summary>The server's SETTINGS parameters, by identifier, once <see cref="ConnectAsync"/> returned.</summary>
    public Dictionary<int, uint> ServerSettings { get; } = [];

    /// <summary>Connects, sends the preface and a SETTINGS frame with <paramref name="settings"/>, and reads the server's SETTINGS.</summary>
    public static async Task<Http2Wire> ConnectAsync(int port, params (ushort Id, uint Value)[] settings)
    {
        var wire = await OpenAsync(port);
        await wire.SendRawAsync(Preface);
        await wire.SendSettingsAsync(settings);
        var serverSettings = await wire.ReadFrameAsync();
        Assert.Equal(Settings, serverSettings.Type);
        wire.ReadSettings(serverSettings);
        return wire;
    }

    /// <summary>
    /// The server end of a connection a client opened to <paramref name="listener"/>: the client's preface is read, its
    /// SETTINGS acknowledged, and ours (<paramref name="settings"/>) sent (RFC 9113 §3.4); for a scripted h2 destination.
    /// </summary>
    public static async Task<Http2Wire> AcceptAsync(TcpListener listener, params (ushort Id, uint Value)[] settings)
    {
        var socket = await Deadline.RunAsync(token => listener.AcceptSocketAsync(token), "Accepting an HTTP/2 connection");
        var wire = new Http2Wire(socket);
        var preface = new byte[Preface.Length];
        await Deadline.RunAsync(token => wire._stream.ReadExactlyAsync(preface, token), "The client's preface");
        Assert.Equal(Preface, preface);
        await wire.SendSettingsAsync(settings);
        Assert.Equal(Settings, (await wire.ReadFrameAsync()).Type);
        return wire;
    }

    /// <summary>
    /// The server end of a connection a client opened to <paramref name="listener"/>, the client's preface and SETTINGS
    /// read, ours not sent yet (RFC 9113 §3.4 lets the client send requests before them): the test sends them.
    /// </summary>
    public static async Task<Http2Wire> AcceptWithoutSettingsAsync(TcpListener listener)
    {
        var socket = await Deadline.RunAsync(token => listener.AcceptSocketAsync(token), "Accepting an HTTP/2 connection");
        var wire = new Http2Wire(socket);
        var preface = new byte[Preface.Length];
        await Deadline.RunAsync(token => wire._stream.ReadExactlyAsync(preface, token), "The client's preface");
        Assert.Equal(Preface, preface);
        Assert.Equal(Settings, (await wire.ReadFrameAsync()).Type);
        return wire;
    }

    /// <summary>A TCP connection to <paramref name="port"/> on which nothing was sent yet, not even the preface.</summary>
    public static async Task<Http2Wire> OpenAsync(int port)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await Deadline.RunAsync(token => socket.ConnectAsync("127.0.0.1", port, token), "Connecting");
        return new Http2Wire(socket);
    }

    /// <summary>A field block (RFC 7541 §6.2.2 literals without indexing, never Huffman-coded) of <paramref name="fields"/>.</summary>
    public static byte[] FieldBlock(params (string Name, string Value)[] fields) => Encode(fields);

    /// <summary>The payload of a PADDED frame (RFC 9113 §6.1, §6.2): the pad length, <paramref name="content"/>, then <paramref name="padLength"/> zeros.</summary>
    public static byte[] WithPadding(byte padLength, byte[] content) => [padLength, .. content, .. new byte[padLength]];

    public Task SendSettingsAsync(params (ushort Id, uint Value)[] settings)
    {
        var payload = new byte[6 * settings.Length];
        for (var i = 0; i < settings.Length; i++)
        {
            BinaryPrimitives.WriteUInt16BigEndian(payload.AsSpan(6 * i), settings[i].Id);
            BinaryPrimitives.WriteUInt32BigEndian(payload.AsSpan((6 * i) + 2), settings[i].Value);
        }

        return SendFrameAsync(Settings, 0, 0, payload);
    }

    public Task SendWindowUpdateAsync(int streamId, int increment)
    {
        var payload = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(payload, increment);
        return SendFrameAsync(WindowUpdate, 0, streamId, payload);
    }

    public Task SendPingAsync(byte[] payload) => SendFrameAsync(Ping, 0, 0, payload);

    /// <summary>
    /// Sends a PING and reads frames up to its ACK (RFC 9113 §6.7), which the server sends once it processed every frame
    /// sent before the PING; returns the frames read before the ACK, and the ACK last.
    /// </summary>
    public async Task<List<Frame>> PingRoundTripAsync(byte[] payload)
    {
        await SendPingAsync(payload);
        var frames = new List<Frame>();
        Frame frame;
        do
        {
            frame = await ReadFrameAsync();
            frames.Add(frame);
        }
        while (frame.Type != Ping || (frame.Flags & Ack) == 0);

        return frames;
    }

    /// <summary>Resets a stream with <paramref name="errorCode"/> (RFC 9113 §6.4).</summary>
    public Task SendResetAsync(int streamId, int errorCode)
    {
        var code = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(code, errorCode);
        return SendFrameAsync(RstStream, 0, streamId, code);
    }

    /// <summary>Sends GOAWAY (RFC 9113 §6.8) with <paramref name="lastStreamId"/> and NO_ERROR.</summary>
    public Task SendGoAwayAsync(int lastStreamId)
    {
        var payload = new byte[8];
        BinaryPrimitives.WriteInt32BigEndian(payload, lastStreamId);
        return SendFrameAsync(GoAway, 0, 0, payload);
    }

    /// <summary>
    /// Reads frames, whatever they are, until a GOAWAY or the end of the connection (a close or a reset); a connection that
    /// stays open and silent past <see cref="Deadline.Io"/> fails the test.
    /// </summary>
    public async Task<ConnectionEnd> ReadConnectionEndAsync()
    {
        while (await TryReadFrameAsync() is { } frame)
        {
            if (frame.Type == GoAway)
            {
                return new ConnectionEnd(
                    BinaryPrimitives.ReadInt32BigEndian(frame.Payload.AsSpan(4)),
                    BinaryPrimitives.ReadInt32BigEndian(frame.Payload) & int.MaxValue);
            }
        }

        return new ConnectionEnd(null, null);
    }

    /// <summary>
    /// Reads until a connection error (RFC 9113 §5.4.1): a GOAWAY with <paramref name="errorCode"/>, after which the server
    /// closes the connection; returns the GOAWAY's last stream id.
    /// </summary>
    public async Task<int> ExpectConnectionErrorAsync(int errorCode)
    {
        var end = await ReadConnectionEndAsync();
        Assert.True(end.ErrorCode == errorCode, $"Expected GOAWAY with error {errorCode}, got {(end.ErrorCode is { } code ? $"GOAWAY with error {code}" : "the connection's end without GOAWAY")}.");
        await ExpectClosedAsync();
        return end.LastStreamId!.Value;
    }

    /// <summary>Reads (and drops) frames until the server ends the connection; fails the test if it stays open past <see cref="Deadline.Io"/>.</summary>
    public async Task ExpectClosedAsync()
    {
        while (await TryReadFrameAsync() is not null)
        {
        }
    }

    /// <summary>Every byte until the server ends the connection, as they come (no framing assumed).</summary>
    public async Task<byte[]> ReadToEndAsync()
    {
        var received = new MemoryStream();
        try
        {
            await Deadline.RunAsync(token => new ValueTask(_stream.CopyToAsync(received, token)), "The end of the connection");
        }
        catch (IOException)
        {
            // Reset rather than closed: an end too.
        }

        return received.ToArray();
    }

    /// <summary>The fields of a request: its pseudo-headers (RFC 9113 §8.3.1) for <c>http</c>, then <paramref name="more"/>.</summary>
    public static (string Name, string Value)[] Request(string method, string authority, string path, params (string Name, string Value)[] more)
        => [(":method", method), (":scheme", "http"), (":authority", authority), (":path", path), .. more];

    public Task SendHeadersAsync(int streamId, bool endStream, params (string Name, string Value)[] fields)
        => SendFrameAsync(Headers, (byte)(EndHeaders | (endStream ? EndStream : 0)), streamId, Encode(fields));

    public Task SendDataAsync(int streamId, byte[] data, bool endStream) => SendFrameAsync(Data, endStream ? EndStream : (byte)0, streamId, data);

    /// <summary>Resets a stream with CANCEL (0x8), as a client that gives up does.</summary>
    public Task SendResetAsync(int streamId) => SendResetAsync(streamId, Cancel);

    public Task SendFrameAsync(byte type, byte flags, int streamId, byte[] payload) => SendRawAsync(FrameBytes(type, flags, streamId, payload));

    /// <summary>A whole frame (RFC 9113 §4.1): its 9-byte header, then <paramref name="payload"/>.</summary>
    public static byte[] FrameBytes(byte type, byte flags, int streamId, byte[] payload)
    {
        var frame = new byte[9 + payload.Length];
        frame[0] = (byte)(payload.Length >> 16);
        frame[1] = (byte)(payload.Length >> 8);
        frame[2] = (byte)payload.Length;
        frame[3] = type;
        frame[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(5), streamId);
        payload.CopyTo(frame, 9);
        return frame;
    }

    /// <summary>
    /// Sends <paramref name="frame"/> again and again, in writes of about 64 KB, until <paramref name="totalBytes"/> are sent
    /// or the server ends the connection; true when it ended it (a send failed: closed or reset). A send the server does
    /// not take within <see cref="Deadline.Io"/> fails the test.
    /// </summary>
    public async Task<bool> FloodAsync(byte[] frame, long totalBytes)
    {
        var batch = new byte[Math.Max(1, 65_536 / frame.Length) * frame.Length];
        for (var offset = 0; offset < batch.Length; offset += frame.Length)
        {
            frame.CopyTo(batch, offset);
        }

        for (long sent = 0; sent < totalBytes; sent += batch.Length)
        {
            try
            {
                await SendRawAsync(batch);
            }
            catch (IOException)
            {
                return true;
            }
        }

        return false;
    }

    public Task SendRawAsync(byte[] bytes) => Deadline.RunAsync(token => _stream.WriteAsync(bytes, token), "An HTTP/2 send");

    /// <summary>The next frame; SETTINGS are acknowledged as they come, and returned too.</summary>
    public async Task<Frame> ReadFrameAsync() =>
        await TryReadFrameAsync() ?? throw new EndOfStreamException("The server ended the connection where a frame was expected.");

    /// <summary>The next frame as <see cref="ReadFrameAsync"/> reads it, or null when the server ended the connection (a close or a reset) first, or within the frame.</summary>
    public async Task<Frame?> TryReadFrameAsync()
    {
        var header = new byte[9];
        try
        {
            await Deadline.RunAsync(token => _stream.ReadExactlyAsync(header, token), "An HTTP/2 frame header");
        }
        catch (Exception e) when (e is EndOfStreamException or IOException)
        {
            return null;
        }

        var length = (header[0] << 16) | (header[1] << 8) | header[2];
        var payload = new byte[length];
        try
        {
            await Deadline.RunAsync(token => _stream.ReadExactlyAsync(payload, token), "An HTTP/2 frame payload");
        }
        catch (Exception e) when (e is EndOfStreamException or IOException)
        {
            // Aborted mid-frame: an end too.
            return null;
        }

        var frame = new Frame(header[3], header[4], BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(5)) & int.MaxValue, payload);
        if (frame.Type == Settings && (frame.Flags & Ack) == 0)
        {
            ReadSettings(frame);
            await SendFrameAsync(Settings, Ack, 0, []);
        }

        return frame;
    }

    /// <summary>
    /// Reads frames until one of <paramref name="streamId"/> ends it (END_STREAM or RST_STREAM), or a GOAWAY ends the
    /// connection (one with an error, or one whose last stream id is below <paramref name="streamId"/>).
    /// </summary>
    public async Task<StreamOutcome> ReadStreamAsync(int streamId) => (await ReadStreamsAsync(streamId))[streamId];

    /// <summary>
    /// Reads frames until each of <paramref name="streamIds"/> ended (END_STREAM or RST_STREAM), or a GOAWAY ended the
    /// connection for those left (one with an error, or one whose last stream id is below theirs); frames of other streams are dropped.
    /// </summary>
    public Task<Dictionary<int, StreamOutcome>> ReadStreamsAsync(params int[] streamIds) => ReadStreamsAsync(streamIds, ended: null);

    /// <summary><see cref="ReadStreamsAsync(int[])"/>, calling <paramref name="ended"/> with each stream's id as it ends.</summary>
    public async Task<Dictionary<int, StreamOutcome>> ReadStreamsAsync(int[] streamIds, Action<int>? ended)
    {
        var outcomes = streamIds.ToDictionary(id => id, _ => new StreamOutcome());
        var open = new HashSet<int>(streamIds);
        while (open.Count > 0)
        {
            var frame = await ReadFrameAsync();
            if (frame.Type == GoAway)
            {
                var error = BinaryPrimitives.ReadInt32BigEndian(frame.Payload.AsSpan(4));
                var lastStreamId = BinaryPrimitives.ReadInt32BigEndian(frame.Payload) & int.MaxValue;
                foreach (var id in open.ToArray())
                {
                    (outcomes[id].GoAwayError, outcomes[id].GoAwayLastStreamId) = (error, lastStreamId);
                    // A graceful GOAWAY (§6.8) lets the streams up to its last stream id complete.
                    if (error != NoError || lastStreamId < id)
                    {
                        open.Remove(id);
                        ended?.Invoke(id);
                    }
                }

                continue;
            }

            if (!open.Contains(frame.StreamId))
            {
                continue;
            }

            var outcome = outcomes[frame.StreamId];
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
                    open.Remove(frame.StreamId);
                    ended?.Invoke(frame.StreamId);
                    continue;
            }

            if ((frame.Type == Headers || frame.Type == Data) && (frame.Flags & EndStream) != 0)
            {
                open.Remove(frame.StreamId);
                ended?.Invoke(frame.StreamId);
            }
        }

        return outcomes;
    }

    /// <summary>
    /// The <c>:status</c> of a response field block that starts with it, as Kestrel encodes it: an indexed static entry
    /// (RFC 7541 Appendix A: 8 to 14), else a literal with the static name 8 and a plain value.
    /// </summary>
    public static int StatusOf(byte[] block)
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

    private void ReadSettings(Frame settings)
    {
        for (var i = 0; i + 6 <= settings.Payload.Length; i += 6)
        {
            ServerSettings[BinaryPrimitives.ReadUInt16BigEndian(settings.Payload.AsSpan(i))] = BinaryPrimitives.ReadUInt32BigEndian(settings.Payload.AsSpan(i + 2));
        }
    }

    public ValueTask DisposeAsync() => _stream.DisposeAsync();

    public readonly record struct Frame(byte Type, byte Flags, int StreamId, byte[] Payload);

    /// <summary>How the server ended a connection: a GOAWAY's error code and last stream id, or neither when it closed without one.</summary>
    public readonly record struct ConnectionEnd(int? ErrorCode, int? LastStreamId);

    /// <summary>How a stream ended: its status and body, or the error code of its RST_STREAM or of the connection's GOAWAY.</summary>
    public sealed class StreamOutcome
    {
        public int? Status { get; set; }

        public StringBuilder Body { get; } = new();

        public int? ResetError { get; set; }

        public int? GoAwayError { get; set; }

        /// <summary>The last stream id of the GOAWAY, if one came: the stream was not processed when it is below the stream's id.</summary>
        public int? GoAwayLastStreamId { get; set; }
    }
}
