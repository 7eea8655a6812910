using System.Buffers;
using System.Buffers.Binary;

namespace LLRP.Http2.Codec;

/// <summary>The fixed-size fields in a frame's payload, read the same way at both ends of a connection (RFC 9113 §6).</summary>
internal static class FramePayload
{
    /// <summary>The 32-bit big-endian value at the payload's start (an error code, RFC 9113 §6.4); the payload holds at least 4 bytes.</summary>
    public static uint ReadUInt32(in ReadOnlySequence<byte> payload)
    {
        Span<byte> bytes = stackalloc byte[4];
        payload.Slice(0, 4).CopyTo(bytes);
        return BinaryPrimitives.ReadUInt32BigEndian(bytes);
    }

    /// <summary>
    /// The 31-bit value at the payload's start, its reserved bit ignored: a stream dependency (§5.3.1), a last stream id
    /// (§6.8), a window size increment (§6.9).
    /// </summary>
    public static int ReadUInt31(in ReadOnlySequence<byte> payload) => (int)(ReadUInt32(payload) & 0x7FFF_FFFF);
}
