using System.Buffers;
using System.Buffers.Binary;

namespace LLRP.Http2.Codec;

/// <summary>
/// Writes whole frames (RFC 9113 §4.1, §6) into an <see cref="IBufferWriter{T}"/>, typically the connection's output
/// pipe; it never flushes. Payload sizes are the caller's to bound by the peer's SETTINGS_MAX_FRAME_SIZE, except
/// <see cref="WriteHeaders"/>, which splits a field block itself.
/// </summary>
internal static class FrameWriter
{
    private const int SettingSize = 6;
    private const int PingPayloadSize = 8;

    /// <summary>RFC 9113 §6.5: a SETTINGS frame on stream 0, each setting a 16-bit identifier and a 32-bit value.</summary>
    public static void WriteSettings(IBufferWriter<byte> output, ReadOnlySpan<(ushort Id, uint Value)> settings)
    {
        var length = settings.Length * SettingSize;
        var span = output.GetSpan(FrameHeader.Size + length);
        new FrameHeader(length, Http2FrameType.Settings, Http2FrameFlags.None, 0).WriteTo(span);
        var payload = span[FrameHeader.Size..];
        foreach (var (id, value) in settings)
        {
            BinaryPrimitives.WriteUInt16BigEndian(payload, id);
            BinaryPrimitives.WriteUInt32BigEndian(payload[2..], value);
            payload = payload[SettingSize..];
        }

        output.Advance(FrameHeader.Size + length);
    }

    /// <summary>RFC 9113 §6.5: a SETTINGS frame with the ACK flag and an empty payload.</summary>
    public static void WriteSettingsAck(IBufferWriter<byte> output)
        => WriteHeaderOnly(output, new FrameHeader(0, Http2FrameType.Settings, Http2FrameFlags.Ack, 0));

    /// <summary>RFC 9113 §6.7: a PING frame on stream 0 with 8 bytes of opaque data, in network byte order.</summary>
    public static void WritePing(IBufferWriter<byte> output, bool ack, ulong opaqueData)
    {
        Span<byte> payload = stackalloc byte[PingPayloadSize];
        BinaryPrimitives.WriteUInt64BigEndian(payload, opaqueData);
        WritePing(output, ack, payload);
    }

    /// <summary>RFC 9113 §6.7: a PING frame on stream 0; a response (ACK) carries the same 8 bytes as the PING it answers.</summary>
    public static void WritePing(IBufferWriter<byte> output, bool ack, ReadOnlySpan<byte> opaqueData)
    {
        if (opaqueData.Length != PingPayloadSize)
        {
            throw new ArgumentOutOfRangeException(nameof(opaqueData), opaqueData.Length, "A PING frame carries exactly 8 bytes (RFC 9113 §6.7).");
        }

        WriteFrame(output, new FrameHeader(PingPayloadSize, Http2FrameType.Ping, ack ? Http2FrameFlags.Ack : Http2FrameFlags.None, 0), opaqueData);
    }

    /// <summary>RFC 9113 §6.8: a GOAWAY frame on stream 0: the last stream id processed, the error code, debug data.</summary>
    public static void WriteGoAway(IBufferWriter<byte> output, int lastStreamId, Http2ErrorCode errorCode, ReadOnlySpan<byte> debugData)
    {
        var length = 8 + debugData.Length;
        var span = output.GetSpan(FrameHeader.Size + length);
        new FrameHeader(length, Http2FrameType.GoAway, Http2FrameFlags.None, 0).WriteTo(span);
        BinaryPrimitives.WriteUInt32BigEndian(span[FrameHeader.Size..], (uint)lastStreamId & 0x7FFF_FFFF);
        BinaryPrimitives.WriteUInt32BigEndian(span[(FrameHeader.Size + 4)..], (uint)errorCode);
        debugData.CopyTo(span[(FrameHeader.Size + 8)..]);
        output.Advance(FrameHeader.Size + length);
    }

    /// <summary>RFC 9113 §6.4: an RST_STREAM frame carrying one error code.</summary>
    public static void WriteRstStream(IBufferWriter<byte> output, int streamId, Http2ErrorCode errorCode)
    {
        var span = output.GetSpan(FrameHeader.Size + 4);
        new FrameHeader(4, Http2FrameType.RstStream, Http2FrameFlags.None, streamId).WriteTo(span);
        BinaryPrimitives.WriteUInt32BigEndian(span[FrameHeader.Size..], (uint)errorCode);
        output.Advance(FrameHeader.Size + 4);
    }

    /// <summary>RFC 9113 §6.9: a WINDOW_UPDATE frame (stream 0: the connection's window) with a 31-bit increment.</summary>
    public static void WriteWindowUpdate(IBufferWriter<byte> output, int streamId, int increment)
    {
        if (increment <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(increment), increment, "A window increment is 1 to 2^31-1 (RFC 9113 §6.9).");
        }

        var span = output.GetSpan(FrameHeader.Size + 4);
        new FrameHeader(4, Http2FrameType.WindowUpdate, Http2FrameFlags.None, streamId).WriteTo(span);
        BinaryPrimitives.WriteUInt32BigEndian(span[FrameHeader.Size..], (uint)increment);
        output.Advance(FrameHeader.Size + 4);
    }

    /// <summary>RFC 9113 §6.1: one DATA frame, unpadded.</summary>
    public static void WriteData(IBufferWriter<byte> output, int streamId, ReadOnlySpan<byte> data, bool endStream)
        => WriteFrame(output, new FrameHeader(data.Length, Http2FrameType.Data, EndStreamFlag(endStream), streamId), data);

    /// <summary>RFC 9113 §6.1: one DATA frame, unpadded, from a multi-segment payload.</summary>
    public static void WriteData(IBufferWriter<byte> output, int streamId, ReadOnlySequence<byte> data, bool endStream)
    {
        if (data.IsSingleSegment)
        {
            WriteData(output, streamId, data.FirstSpan, endStream);
            return;
        }

        if (data.Length > FrameHeader.MaxLength)
        {
            throw new ArgumentOutOfRangeException(nameof(data), data.Length, "A frame's length is a 24-bit value (RFC 9113 §4.1).");
        }

        WriteHeaderOnly(output, new FrameHeader((int)data.Length, Http2FrameType.Data, EndStreamFlag(endStream), streamId));
        foreach (var segment in data)
        {
            output.Write(segment.Span);
        }
    }

    /// <summary>
    /// RFC 9113 §6.2, §6.10: a field block as one HEADERS frame followed by as many CONTINUATION frames as needed, each
    /// payload at most <paramref name="maxFrameSize"/> bytes; END_STREAM on the HEADERS frame when asked, END_HEADERS
    /// on the last frame only.
    /// </summary>
    public static void WriteHeaders(IBufferWriter<byte> output, int streamId, ReadOnlySpan<byte> fieldBlock, bool endStream, int maxFrameSize)
    {
        if (maxFrameSize <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(maxFrameSize), maxFrameSize, "A frame size limit is positive (RFC 9113 §6.5.2 allows 2^14 to 2^24-1).");
        }

        var type = Http2FrameType.Headers;
        var flags = EndStreamFlag(endStream);
        do
        {
            var length = Math.Min(fieldBlock.Length, maxFrameSize);
            var last = length == fieldBlock.Length;
            WriteFrame(output, new FrameHeader(length, type, last ? flags | Http2FrameFlags.EndHeaders : flags, streamId), fieldBlock[..length]);
            fieldBlock = fieldBlock[length..];
            type = Http2FrameType.Continuation;
            flags = Http2FrameFlags.None;
        }
        while (!fieldBlock.IsEmpty);
    }

    private static Http2FrameFlags EndStreamFlag(bool endStream) => endStream ? Http2FrameFlags.EndStream : Http2FrameFlags.None;

    /// <summary>A frame header alone: the frame has no payload, or the caller writes it next.</summary>
    private static void WriteHeaderOnly(IBufferWriter<byte> output, FrameHeader header)
    {
        header.WriteTo(output.GetSpan(FrameHeader.Size));
        output.Advance(FrameHeader.Size);
    }

    /// <summary>Header and payload in one copy when the writer's current span holds both; a large payload is written on.</summary>
    private static void WriteFrame(IBufferWriter<byte> output, FrameHeader header, ReadOnlySpan<byte> payload)
    {
        var span = output.GetSpan(FrameHeader.Size);
        header.WriteTo(span);
        if (span.Length >= FrameHeader.Size + payload.Length)
        {
            payload.CopyTo(span[FrameHeader.Size..]);
            output.Advance(FrameHeader.Size + payload.Length);
            return;
        }

        output.Advance(FrameHeader.Size);
        output.Write(payload);
    }
}
