using System.Buffers;

namespace LLRP.Http2.Codec;

/// <summary>The padding of DATA and HEADERS frames (RFC 9113 §6.1, §6.2), the same rule at both ends of a connection.</summary>
internal static class FramePadding
{
    /// <summary>The payload without its padding and the <paramref name="skip"/> bytes after the pad length.</summary>
    /// <exception cref="Http2ConnectionException">The payload is shorter than its fields, or its padding as long as itself.</exception>
    public static ReadOnlySequence<byte> Remove(FrameHeader header, in ReadOnlySequence<byte> payload, int skip)
    {
        if ((header.Flags & Http2FrameFlags.Padded) == 0)
        {
            return payload.Length < skip ? throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, $"{header.Type} too short for its fields") : payload.Slice(skip);
        }

        if (payload.IsEmpty)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, $"{header.Type} too short for its pad length (RFC 9113 §6.1)");
        }

        var padding = payload.FirstSpan[0];
        if (1 + skip + padding > payload.Length)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, $"{header.Type} padding as long as its payload (RFC 9113 §6.1)");
        }

        return payload.Slice(1 + skip, payload.Length - 1 - skip - padding);
    }
}
