using System.Buffers;
using System.IO.Pipelines;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;
using Microsoft.Extensions.Primitives;

namespace LLRP.Tests.Http1;

/// <summary>Which trailer fields are relayed (RFC 9110 §6.5.1), and the trailer section that ends a chunked body (RFC 9112 §7.1.2).</summary>
public sealed class TrailerFieldsTests
{
    /// <summary>RFC 9110 §6.5.1: fields that describe framing, routing, request modifiers, authentication, response control or content format.</summary>
    [Theory]
    [InlineData("Content-Length")]
    [InlineData("transfer-encoding")]
    [InlineData("Trailer")]
    [InlineData("Connection")]
    [InlineData("TE")]
    [InlineData("Host")]
    [InlineData("Cache-Control")]
    [InlineData("If-None-Match")]
    [InlineData("Authorization")]
    [InlineData("Set-Cookie")]
    [InlineData("Retry-After")]
    [InlineData("Content-Type")]
    [InlineData("CONTENT-ENCODING")]
    [InlineData("Proxy-Authentication-Info")]
    public void MayRelay_FieldNotAllowedInTrailers_False_Rfc9110_6_5_1(string name)
    {
        Assert.False(TrailerFields.MayRelay(name, "x"));
        Assert.False(TrailerFields.MayRelay(Text.Bytes(name)));
    }

    [Theory]
    [InlineData("grpc-status")]
    [InlineData("X-Checksum")]
    [InlineData("Server-Timing")]
    [InlineData("x-a-field-name-longer-than-every-forbidden-one")]
    public void MayRelay_OtherField_True(string name)
    {
        Assert.True(TrailerFields.MayRelay(name, "value with\tspace and obs-text \u00e9"));
        Assert.True(TrailerFields.MayRelay(Text.Bytes(name)));
    }

    /// <summary>RFC 9110 §5.1, §5.5: a name that is not a token, or a value with CR, LF, NUL, DEL or past Latin-1, is not relayed.</summary>
    [Theory]
    [InlineData("", "v")]
    [InlineData("bad name", "v")]
    [InlineData("bad:name", "v")]
    [InlineData("x-ok", "a\r\nInjected: 1")]
    [InlineData("x-ok", "a\nb")]
    [InlineData("x-ok", "a\0b")]
    [InlineData("x-ok", "a\u007fb")]
    [InlineData("x-ok", "a\u0100b")]
    public void MayRelay_InvalidNameOrValue_False_Rfc9110_5_5(string name, string value)
        => Assert.False(TrailerFields.MayRelay(name, value));

    [Fact]
    public void Lines_KeepsOrderAndRepeats_DropsForbidden()
    {
        var lines = TrailerFields.Lines<StringValues>(
        [
            new("grpc-status", "0"),
            new("Content-Type", "text/plain"),
            new("x-list", new StringValues(["a", "b"])),
        ]);

        Assert.Equal("grpc-status: 0\r\nx-list: a\r\nx-list: b\r\n", Text.Of(lines.WrittenSpan));
    }

    /// <summary>RFC 9112 §7.1.2: last-chunk, the trailer section's field lines, then CRLF.</summary>
    [Fact]
    public async Task WriteLastChunk_WithTrailerLines_Rfc9112_7_1_2()
    {
        var pipe = new Pipe();
        ChunkedEncoding.WriteLastChunk(pipe.Writer, "x-checksum: 42\r\n"u8);
        await pipe.Writer.CompleteAsync();

        var read = await pipe.Reader.ReadAsync();
        Assert.Equal("0\r\nx-checksum: 42\r\n\r\n", Text.Of(read.Buffer.ToArray()));
        pipe.Reader.AdvanceTo(read.Buffer.End);
    }
}
