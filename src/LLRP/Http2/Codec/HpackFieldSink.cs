using System.Buffers;
using System.Buffers.Text;
using LLRP.Http1;

namespace LLRP.Http2.Codec;

/// <summary>
/// Encodes the field lines of a response head as they are given, from bytes (<see cref="HpackEncoder"/>: names lowercased,
/// static-table names indexed), with no string made. A connection-specific field is left out (RFC 9113 §8.2.2), by the
/// rule the HTTP/1.1 front end drops hop-by-hop fields with (<see cref="KnownFields.IsHopByHop"/>), so a field a response
/// transform adds is held to it too.
/// </summary>
internal readonly struct HpackFieldSink(ArrayBufferWriter<byte> block) : IFieldSink
{
    public void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (!KnownFields.IsHopByHop(KnownFields.Classify(name)))
        {
            HpackEncoder.EncodeField(block, name, value);
        }
    }

    /// <summary>Writes <c>content-length</c> (RFC 9113 §8.1.1: it must equal the DATA sent).</summary>
    public void ContentLength(long length)
    {
        Span<byte> digits = stackalloc byte[20];
        Utf8Formatter.TryFormat(length, digits, out var written);
        HpackEncoder.EncodeField(block, "content-length"u8, digits[..written]);
    }
}
