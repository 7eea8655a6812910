using System.Buffers;
using System.Net.Http.Headers;
using LLRP.Http1;
using Microsoft.AspNetCore.WebUtilities;
using Microsoft.Extensions.Primitives;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// A response head held as strings (by HttpClient, or by an <c>HttpResponse</c>) or decoded from an HTTP/2 field block, written out as HTTP/1.1 bytes and parsed
/// back by <see cref="ResponseHeadParser"/>, so every mode validates and re-emits responses with the same rules:
/// ambiguous framing is refused, hop-by-hop fields and the fields <c>Connection</c> names are dropped. One per client connection.
/// </summary>
internal sealed class RenderedResponseHead
{
    private readonly ArrayBufferWriter<byte> _bytes = new(1024);

    /// <summary>The head parsed last.</summary>
    public ResponseHead Head { get; } = new();

    public void Begin(int statusCode, string? reasonPhrase, bool isHttp10)
    {
        _bytes.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_bytes, 64);
        writer.Write(isHttp10 ? "HTTP/1.0 "u8 : "HTTP/1.1 "u8);
        writer.WriteDecimal(statusCode);
        writer.Write(" "u8);
        writer.WriteLatin1(string.IsNullOrEmpty(reasonPhrase) ? ReasonPhrases.GetReasonPhrase(statusCode) : reasonPhrase);
        writer.Write("\r\n"u8);
        writer.Commit();
    }

    /// <summary>Adds one field line per value (HttpClient's headers).</summary>
    public void Add(string name, HeaderStringValues values)
    {
        foreach (var value in values)
        {
            Add(name, value);
        }
    }

    /// <summary>Adds one field line per value (an <c>HttpResponse</c>'s headers).</summary>
    public void Add(string name, StringValues values)
    {
        foreach (var value in values)
        {
            Add(name, value);
        }
    }

    private void Add(string name, string? value) => FieldLine.Append(_bytes, name, value);

    /// <summary>Adds one field line from bytes (an HTTP/2 field block, decoded and checked by RFC 9113 §8.2's rules).</summary>
    public void Add(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_bytes, name.Length + value.Length + 4);
        writer.Field(name, value);
        writer.Commit();
    }

    /// <summary>Ends the head and parses it into <see cref="Head"/>; throws <see cref="HttpMessageException"/> for what raw mode would refuse.</summary>
    public ResponseHead Parse(int maxHeadSize)
    {
        _bytes.Write("\r\n"u8);
        ResponseHeadParser.TryParse(new ReadOnlySequence<byte>(_bytes.WrittenMemory), Head, maxHeadSize, out _);
        return Head;
    }
}
