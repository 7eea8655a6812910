using System.Buffers;
using LLRP.Http1;
using LLRP.Http2.Codec;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// Encodes a request's field block for a destination speaking HTTP/2 (RFC 9113 §8.3.1): the pseudo-header fields first,
/// <c>Host</c> (which <see cref="RequestRewriter.WriteFields"/> gives first) as <c>:authority</c>, then the fields the
/// rewriter gives, lowercased, without the connection-specific ones (§8.2.2: <c>te</c> only as <c>trailers</c>).
/// </summary>
internal struct RequestFieldBlock(IBufferWriter<byte> output) : IFieldSink
{
    private const int MaxNameOnStack = 64;

    /// <summary>Writes <c>:method</c>, <c>:scheme</c> and <c>:path</c>; <c>:authority</c> follows from the <c>Host</c> field.</summary>
    public readonly void Begin(ReadOnlySpan<byte> method, bool https, ReadOnlySpan<byte> path)
    {
        HpackEncoder.EncodeField(output, ":method"u8, method);
        HpackEncoder.EncodeField(output, ":scheme"u8, https ? "https"u8 : "http"u8);
        HpackEncoder.EncodeField(output, ":path"u8, path);
    }

    public readonly void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        Span<byte> lower = stackalloc byte[MaxNameOnStack];
        if (name.Length <= MaxNameOnStack)
        {
            var length = System.Text.Ascii.ToLower(name, lower, out var written) == System.Buffers.OperationStatus.Done ? written : 0;
            var lowered = lower[..length];
            if (lowered.SequenceEqual("host"u8))
            {
                HpackEncoder.EncodeField(output, ":authority"u8, value);
                return;
            }

            if (FieldRules.IsConnectionSpecific(lowered) || (lowered.SequenceEqual("te"u8) && !System.Text.Ascii.EqualsIgnoreCase(value, "trailers"u8)))
            {
                return;
            }
        }

        HpackEncoder.EncodeField(output, name, value);
    }

    /// <summary>RFC 9113 §8.1.1: a request with a body of known length may say it with <c>content-length</c>.</summary>
    public readonly void ContentLength(long length)
    {
        Span<byte> digits = stackalloc byte[20];
        length.TryFormat(digits, out var written);
        HpackEncoder.EncodeField(output, "content-length"u8, digits[..written]);
    }
}
