using System.Buffers.Binary;
using LLRP.Http2.Codec;

namespace LLRP.Fuzz;

/// <summary>
/// Checks the server's bytes as a client would read them (RFC 9113): whole frames only, its SETTINGS first, every frame
/// header sane for its type, header blocks contiguous (§6.10) and decodable (RFC 7541) with <c>:status</c> first, DATA
/// within what the client's windows can have allowed (§6.9), no DATA or HEADERS on a stream after its END_STREAM or its
/// RST_STREAM (§5.1), RST_STREAM only on a stream the client named, PING answers echoing a client's PING (§6.7), no frame after a
/// GOAWAY with an error and no GOAWAY raising the last stream id (§6.8), and each SETTINGS of the client acknowledged
/// unless the connection ended on an error (§6.5.3).
/// </summary>
internal sealed class ServerFrames(ClientFrames client)
{
    private readonly HpackDecoder _decoder = new(4096, 1 << 20);
    private readonly Dictionary<int, long> _dataSent = [];
    private readonly HashSet<int> _headSent = [];
    private readonly HashSet<int> _ended = [];
    private readonly HashSet<int> _reset = [];
    private long _connectionDataSent;
    private int _headerBlockStream;
    private List<byte> _headerBlock = [];
    private int _settingsAcks;
    private int _frames;
    private int? _lastGoAwayStream;
    private bool _errorGoAway;

    public static void Check(ReadOnlySpan<byte> output, ClientFrames client, bool aborted)
    {
        var frames = new ServerFrames(client);
        while (output.Length > 0)
        {
            if (output.Length < FrameHeader.Size)
            {
                throw new OracleViolation($"the output ends inside a frame header ({output.Length} bytes)");
            }

            var length = output[0] << 16 | output[1] << 8 | output[2];
            if (output.Length < FrameHeader.Size + length)
            {
                throw new OracleViolation($"the output ends inside a frame of {length} bytes");
            }

            var raw = BinaryPrimitives.ReadUInt32BigEndian(output[5..]);
            if ((raw & 0x8000_0000u) != 0)
            {
                throw new OracleViolation("a frame with the reserved bit set (RFC 9113 §4.1)");
            }

            frames.Add((Http2FrameType)output[3], (Http2FrameFlags)output[4], (int)raw, output.Slice(FrameHeader.Size, length));
            output = output[(FrameHeader.Size + length)..];
        }

        frames.End(aborted);
    }

    private void Add(Http2FrameType type, Http2FrameFlags flags, int streamId, ReadOnlySpan<byte> payload)
    {
        var what = $"frame {_frames} ({type} on stream {streamId}, {payload.Length} bytes, flags {(byte)flags:x2})";
        Require(_frames++ > 0 || (type == Http2FrameType.Settings && (flags & Http2FrameFlags.Ack) == 0), $"{what}: the server's preface is SETTINGS (RFC 9113 §3.4)");
        Require(!_errorGoAway, $"{what} after a GOAWAY with an error (RFC 9113 §6.8)");
        Require(payload.Length <= client.LargestFrameSize, $"{what} larger than the client allowed (RFC 9113 §4.2)");
        Require(_headerBlockStream == 0 || (type == Http2FrameType.Continuation && streamId == _headerBlockStream), $"{what} inside the header block of stream {_headerBlockStream} (RFC 9113 §6.10)");
        var onStream = type is Http2FrameType.Data or Http2FrameType.Headers or Http2FrameType.Continuation;
        if (type == Http2FrameType.RstStream)
        {
            // A stream error answers a frame on any stream, idle or closed, again on each such frame (RFC 9113 §5.4.2, §6.3).
            Require(streamId != 0 && client.NamedStreams.Contains(streamId), $"{what} on a stream no frame of the client's named");
        }
        else if (onStream)
        {
            Require(client.OpenedStreams.Contains(streamId), $"{what} on a stream the client did not open (RFC 9113 §5.1)");
            Require(!_reset.Contains(streamId), $"{what} after the server's RST_STREAM on it (RFC 9113 §5.1)");
            Require(!_ended.Contains(streamId), $"{what} after the server's END_STREAM on it (RFC 9113 §5.1)");
        }
        else if (type != Http2FrameType.WindowUpdate)
        {
            Require(streamId == 0, $"{what}: a connection frame on a stream");
        }

        switch (type)
        {
            case Http2FrameType.Data:
                Require(_headSent.Contains(streamId), $"{what}: DATA before the response head (RFC 9113 §8.1)");
                _dataSent[streamId] = _dataSent.GetValueOrDefault(streamId) + payload.Length;
                _connectionDataSent += payload.Length;
                Require(_dataSent[streamId] <= client.StreamWindow(streamId), $"{what}: {_dataSent[streamId]} bytes of DATA past the stream's window, at most {client.StreamWindow(streamId)} (RFC 9113 §6.9.1)");
                Require(_connectionDataSent <= client.ConnectionWindow, $"{what}: {_connectionDataSent} bytes of DATA past the connection window, at most {client.ConnectionWindow} (RFC 9113 §6.9.1)");
                EndStreamIf(flags, streamId);
                break;
            case Http2FrameType.Headers:
                _headerBlock = [.. payload];
                _headerBlockStream = streamId;
                EndStreamIf(flags, streamId);
                EndHeaderBlockIf(flags, what);
                break;
            case Http2FrameType.Continuation:
                Require(_headerBlockStream == streamId, $"{what}: CONTINUATION without HEADERS (RFC 9113 §6.10)");
                _headerBlock.AddRange(payload);
                EndHeaderBlockIf(flags, what);
                break;
            case Http2FrameType.RstStream:
                Require(payload.Length == 4, $"{what}: RST_STREAM of a length other than 4");
                _reset.Add(streamId);
                break;
            case Http2FrameType.Settings:
                Require(payload.Length % 6 == 0, $"{what}: SETTINGS of a length not a multiple of 6");
                if ((flags & Http2FrameFlags.Ack) != 0)
                {
                    Require(payload.Length == 0, $"{what}: SETTINGS ACK with a payload");
                    Require(++_settingsAcks <= client.Settings, $"{what}: {_settingsAcks} SETTINGS ACK for {client.Settings} SETTINGS (RFC 9113 §6.5.3)");
                }

                break;
            case Http2FrameType.Ping:
                Require(payload.Length == 8 && (flags & Http2FrameFlags.Ack) != 0 && client.Pings.Contains(BinaryPrimitives.ReadUInt64BigEndian(payload)), $"{what}: not the answer to a PING of the client (RFC 9113 §6.7)");
                break;
            case Http2FrameType.GoAway:
                Require(payload.Length >= 8, $"{what}: GOAWAY shorter than 8");
                var last = (int)(BinaryPrimitives.ReadUInt32BigEndian(payload) & 0x7FFF_FFFF);
                Require(_lastGoAwayStream is not { } before || last <= before, $"{what}: GOAWAY raising the last stream id from {_lastGoAwayStream} to {last} (RFC 9113 §6.8)");
                _lastGoAwayStream = last;
                _errorGoAway = BinaryPrimitives.ReadUInt32BigEndian(payload[4..]) != 0;
                break;
            case Http2FrameType.WindowUpdate:
                Require(payload.Length == 4 && (BinaryPrimitives.ReadUInt32BigEndian(payload) & 0x7FFF_FFFF) != 0, $"{what}: a WINDOW_UPDATE of a length other than 4, or of 0 (RFC 9113 §6.9)");
                break;
            default:
                throw new OracleViolation($"{what}: a frame type the server does not send");
        }
    }

    private void EndStreamIf(Http2FrameFlags flags, int streamId)
    {
        if ((flags & Http2FrameFlags.EndStream) != 0)
        {
            _ended.Add(streamId);
        }
    }

    /// <summary>A whole header block decodes, and a response's first one starts with <c>:status</c> (RFC 9113 §8.3.2).</summary>
    private void EndHeaderBlockIf(Http2FrameFlags flags, string what)
    {
        if ((flags & Http2FrameFlags.EndHeaders) == 0)
        {
            return;
        }

        var fields = new FieldNames();
        try
        {
            _decoder.Decode([.. _headerBlock], fields);
        }
        catch (Exception e) when (e is HpackDecodingException or HeaderListTooLargeException)
        {
            throw new OracleViolation($"{what}: a header block that does not decode ({e.Message})");
        }

        var first = _headSent.Add(_headerBlockStream);
        Require(!first || fields.First == ":status", $"{what}: a response head without :status first (RFC 9113 §8.3.2)");
        _headerBlockStream = 0;
    }

    private void End(bool aborted)
    {
        Require(_headerBlockStream == 0, "the output ends inside a header block (RFC 9113 §6.10)");
        Require(_lastGoAwayStream is not null || aborted || client.SentGoAway || _settingsAcks == client.Settings,
            $"{_settingsAcks} SETTINGS ACK for {client.Settings} SETTINGS, and no GOAWAY (RFC 9113 §6.5.3)");
    }

    private static void Require(bool condition, string violation)
    {
        if (!condition)
        {
            throw new OracleViolation(violation);
        }
    }

    /// <summary>The first field's name of a block.</summary>
    private sealed class FieldNames : IHeaderSink
    {
        public string? First { get; private set; }

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => First ??= System.Text.Encoding.ASCII.GetString(name);
    }
}
