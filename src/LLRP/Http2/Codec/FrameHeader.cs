using System.Buffers;
using System.Buffers.Binary;

namespace LLRP.Http2.Codec;

/// <summary>
/// The 9-byte header every frame starts with (RFC 9113 §4.1): a 24-bit payload length, the type, the flags, one
/// reserved bit and a 31-bit stream identifier.
/// </summary>
internal readonly record struct FrameHeader(int Length, Http2FrameType Type, Http2FrameFlags Flags, int StreamId)
{
    public const int Size = 9;

    /// <summary>The largest payload length the 24-bit field can carry.</summary>
    public const int MaxLength = (1 << 24) - 1;

    /// <summary>Reads the header at the start of <paramref name="buffer"/>; false when fewer than 9 bytes are there.</summary>
    public static bool TryRead(ReadOnlySequence<byte> buffer, out FrameHeader header)
    {
        if (buffer.FirstSpan.Length >= Size)
        {
            header = Read(buffer.FirstSpan);
            return true;
        }

        if (buffer.Length < Size)
        {
            header = default;
            return false;
        }

        Span<byte> bytes = stackalloc byte[Size];
        buffer.Slice(0, Size).CopyTo(bytes);
        header = Read(bytes);
        return true;
    }

    /// <summary>Splits off the next whole frame; false when the buffer holds less (RFC 9113 §4.1, §4.2).</summary>
    /// <param name="maxFrameSize">The SETTINGS_MAX_FRAME_SIZE the reader announced; a longer payload is a FRAME_SIZE_ERROR.</param>
    /// <exception cref="Http2ConnectionException">The payload is longer than <paramref name="maxFrameSize"/>.</exception>
    public static bool TryReadFrame(ref ReadOnlySequence<byte> buffer, int maxFrameSize, out FrameHeader header, out ReadOnlySequence<byte> payload)
    {
        payload = default;
        if (!TryRead(buffer, out header))
        {
            return false;
        }

        if (header.Length > maxFrameSize)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, "A frame larger than SETTINGS_MAX_FRAME_SIZE (RFC 9113 §4.2)");
        }

        if (buffer.Length < Size + header.Length)
        {
            return false;
        }

        payload = buffer.Slice(Size, header.Length);
        buffer = buffer.Slice(payload.End);
        return true;
    }

    /// <summary>Writes the header; the reserved bit is sent as 0 (RFC 9113 §4.1).</summary>
    public void WriteTo(Span<byte> destination)
    {
        if ((uint)Length > MaxLength)
        {
            throw new ArgumentOutOfRangeException(nameof(Length), Length, "A frame's length is a 24-bit value (RFC 9113 §4.1).");
        }

        destination[0] = (byte)(Length >> 16);
        destination[1] = (byte)(Length >> 8);
        destination[2] = (byte)Length;
        destination[3] = (byte)Type;
        destination[4] = (byte)Flags;
        BinaryPrimitives.WriteUInt32BigEndian(destination[5..Size], (uint)StreamId & 0x7FFF_FFFF);
    }

    /// <summary>RFC 9113 §4.1: the reserved bit "MUST remain unset (0x00) when sending and MUST be ignored when receiving".</summary>
    private static FrameHeader Read(ReadOnlySpan<byte> bytes) => new(
        bytes[0] << 16 | bytes[1] << 8 | bytes[2],
        (Http2FrameType)bytes[3],
        (Http2FrameFlags)bytes[4],
        (int)(BinaryPrimitives.ReadUInt32BigEndian(bytes[5..Size]) & 0x7FFF_FFFF));
}
