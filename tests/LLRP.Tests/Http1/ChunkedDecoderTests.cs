using System.Buffers;
using LLRP.Routing;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>The chunked transfer coding (RFC 9112 §7.1) decoded over every split, and one byte at a time.</summary>
public sealed class ChunkedDecoderTests
{
    /// <summary>Bodies and the data they carry: sizes in either hex case and with leading zeros (RFC 9112 §7.1: chunk-size = 1*HEXDIG).</summary>
    public static readonly TheoryData<string, string> ValidBodies = new()
    {
        { "0\r\n\r\n", "" },
        { "5\r\nhello\r\n0\r\n\r\n", "hello" },
        { "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world" },
        { "a\r\n0123456789\r\nB\r\nabcdefghijk\r\n0\r\n\r\n", "0123456789abcdefghijk" },
        { "0005\r\n\r\n\r\n\r\r\n0000\r\n\r\n", "\r\n\r\n\r" },
        { "1\r\n0\r\n1\r\n\n\r\n0\r\n\r\n", "0\n" },
    };

    /// <summary>
    /// RFC 9112 §7.1.1: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), the name a token,
    /// the value a token or a quoted-string (RFC 9110 §5.6.4, obs-text and quoted-pairs included): parsed and ignored.
    /// </summary>
    public static readonly TheoryData<string> BodiesWithExtensions =
    [
        "5;name=value\r\nhello\r\n0\r\n\r\n",
        "5;name=\"quoted;value\"\r\nhello\r\n0\r\n\r\n",
        "5;a;b=c;d=\"e f\"\r\nhello\r\n0;last\r\n\r\n",
        "5 ;x\r\nhello\r\n0\r\n\r\n",
        "5\t; x = y\r\nhello\r\n0\r\n\r\n",
        "5;x=\"\"\r\nhello\r\n0\r\n\r\n",
        "5;x=\"a\\\"b\\\\c\\\td\"\r\nhello\r\n0\r\n\r\n",
        "5;x=\"\u00e9\u00ff\"\r\nhello\r\n0\r\n\r\n",
        "5;x=\"v\" ;y\r\nhello\r\n0\r\n\r\n",
        "5;x=v ;y = \"w\";z\r\nhello\r\n0\r\n\r\n",
        "5;!#$%&'*+-.^_`|~=!#$%&'*+-.^_`|~\r\nhello\r\n0\r\n\r\n",
    ];

    /// <summary>RFC 9112 §7.1.2: trailer fields are parsed and, here, dropped (RFC 9110 §6.5.1 lets a recipient discard them).</summary>
    public static readonly TheoryData<string> BodiesWithTrailers =
    [
        "5\r\nhello\r\n0\r\nExpires: never\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-Checksum: abc\r\nX-Empty:\r\nX-Tab:\tv \u00e9\r\n\r\n",
    ];

    [Theory]
    [MemberData(nameof(ValidBodies))]
    public void Decode_ValidBody_EverySplit(string body, string data)
        => Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.Completed, data, body.Length), ChunkedBody.EverySplit(body));

    [Theory]
    [MemberData(nameof(ValidBodies))]
    public void Decode_ValidBody_ByteByByte(string body, string data)
        => Assert.Equal(data, ChunkedBody.DecodeByteByByte(Text.Bytes(body)));

    /// <summary>RFC 9112 §7.1: the body ends with the last chunk and trailer section; what follows (a pipelined request) is not consumed.</summary>
    [Theory]
    [MemberData(nameof(ValidBodies))]
    public void Decode_BodyFollowedByNextMessage_CompletedAtExactEnd(string body, string data)
        => Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.Completed, data, body.Length), ChunkedBody.EverySplit(body + "GET / HTTP/1.1\r\n"));

    /// <summary>Every proper prefix is incomplete: all of it is consumed, its data returned, nothing thrown.</summary>
    [Theory]
    [MemberData(nameof(ValidBodies))]
    public void Decode_EveryProperPrefix_NeedsMoreData(string body, string data)
    {
        var bytes = Text.Bytes(body);
        for (var length = 0; length < bytes.Length; length++)
        {
            var result = ChunkedBody.EverySplit(body[..length]);

            Assert.Equal(ChunkedDecodeStatus.NeedMoreData, result.Status);
            Assert.Equal(length, result.Consumed);
            Assert.StartsWith(result.Data, data, StringComparison.Ordinal);
        }
    }

    [Theory]
    [MemberData(nameof(BodiesWithExtensions))]
    public void Decode_ChunkExtensions_AcceptedAndDropped(string body)
    {
        Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.Completed, "hello", body.Length), ChunkedBody.EverySplit(body));
        Assert.Equal("hello", ChunkedBody.DecodeByteByByte(Text.Bytes(body)));
    }

    [Theory]
    [MemberData(nameof(BodiesWithTrailers))]
    public void Decode_Trailers_AcceptedAndDropped(string body)
    {
        Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.Completed, "hello", body.Length), ChunkedBody.EverySplit(body));
        Assert.Equal("hello", ChunkedBody.DecodeByteByByte(Text.Bytes(body)));
    }

    /// <summary>RFC 9112 §7.1: chunk-size = 1*HEXDIG, nothing before it; sizes beyond 63 bits cannot be represented (§7.1: MUST guard against overflow).</summary>
    [Theory]
    [InlineData("x\r\n")]
    [InlineData("\r\n")]
    [InlineData(";x\r\n")]
    [InlineData("-5\r\nhello\r\n")]
    [InlineData("+5\r\nhello\r\n")]
    [InlineData(" 5\r\nhello\r\n")]
    [InlineData("0x5\r\nhello\r\n")]
    [InlineData("5g\r\nhello\r\n")]
    [InlineData("00000000000000005\r\nhello\r\n")]
    [InlineData("10000000000000000\r\n")]
    [InlineData("8000000000000000\r\n")]
    [InlineData("FFFFFFFFFFFFFFFF\r\n")]
    public void Decode_InvalidChunkSize_Throws(string body)
        => AssertRejected(body, RejectionReason.InvalidChunkSize);

    /// <summary>The largest size that fits in 63 bits, 16 hex digits, is accepted.</summary>
    [Fact]
    public void Decode_LargestChunkSize_Accepted()
    {
        var result = ChunkedBody.EverySplit("7FFFFFFFFFFFFFFF\r\nabc");

        Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.NeedMoreData, "abc", 21), result);
    }

    /// <summary>RFC 9112 §2.2: lines end with CRLF; a bare LF or CR is rejected.</summary>
    [Theory]
    [InlineData("5\rhello\r\n")]
    [InlineData("5\nhello\r\n")]
    [InlineData("5;x\nhello\r\n")]
    [InlineData("5;x\rhello\r\n")]
    public void Decode_BareLineEnding_Throws(string body)
        => AssertRejected(body, RejectionReason.BareLineFeed);

    /// <summary>
    /// RFC 9112 §7.1.1: every ";" needs a token name after it, whitespace must lead to a ";" or an "=", an "=" needs a
    /// token or a complete quoted-string, and nothing else (no controls, no separators, no obs-text outside quotes).
    /// </summary>
    [Theory]
    [InlineData("5 \r\nhello\r\n")]
    [InlineData("5 x\r\nhello\r\n")]
    [InlineData("5;\r\nhello\r\n")]
    [InlineData("5 ;\r\nhello\r\n")]
    [InlineData("5;;x\r\nhello\r\n")]
    [InlineData("5;x;\r\nhello\r\n")]
    [InlineData("5;x \r\nhello\r\n")]
    [InlineData("5;x=\r\nhello\r\n")]
    [InlineData("5;x= \r\nhello\r\n")]
    [InlineData("5;x=v \r\nhello\r\n")]
    [InlineData("5;=v\r\nhello\r\n")]
    [InlineData("5;bad[=x\r\nhello\r\n")]
    [InlineData("5;x=a[b\r\nhello\r\n")]
    [InlineData("5;x=a=b\r\nhello\r\n")]
    [InlineData("5;x y\r\nhello\r\n")]
    [InlineData("5;x=\"open\r\nhello\r\n")]
    [InlineData("5;x=\"a\"b\r\nhello\r\n")]
    [InlineData("5;x=\"a\u0001\"\r\nhello\r\n")]
    [InlineData("5;x=\"a\\\u007f\"\r\nhello\r\n")]
    [InlineData("5;\u00e9=\u00ff\r\nhello\r\n")]
    [InlineData("5;x=\u00ff\r\nhello\r\n")]
    [InlineData("5;x\u0001\r\nhello\r\n")]
    [InlineData("5;x\0\r\nhello\r\n")]
    [InlineData("5;x\u007f\r\nhello\r\n")]
    public void Decode_InvalidExtension_Throws(string body)
        => AssertRejected(body, RejectionReason.InvalidChunkExtension);

    /// <summary>RFC 9112 §7.1: chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF.</summary>
    [Theory]
    [InlineData("5\r\nhelloX\r\n0\r\n\r\n")]
    [InlineData("5\r\nhello\rX0\r\n\r\n")]
    [InlineData("5\r\nhello\n0\r\n\r\n")]
    [InlineData("5\r\nhello0\r\n\r\n")]
    [InlineData("3\r\nhello\r\n0\r\n\r\n")]
    public void Decode_MissingCrlfAfterData_Throws(string body)
        => AssertRejected(body, RejectionReason.MissingChunkTerminator);

    /// <summary>RFC 9112 §7.1.2: trailer-section = *( field-line CRLF ), field-line = field-name ":" OWS field-value OWS (§5); no obs-fold (§5.2).</summary>
    [Theory]
    [InlineData("0\r\nbad line\r\n\r\n")]
    [InlineData("0\r\nNoColon\r\n\r\n")]
    [InlineData("0\r\n: v\r\n\r\n")]
    [InlineData("0\r\nX : v\r\n\r\n")]
    [InlineData("0\r\nX: a\r\n folded\r\n\r\n")]
    [InlineData("0\r\nX: a\r\n\tfolded\r\n\r\n")]
    [InlineData("0\r\nX: a\0b\r\n\r\n")]
    [InlineData("0\r\nX: a\nY: b\r\n\r\n")]
    [InlineData("0\r\nX: a\rY: b\r\n\r\n")]
    [InlineData("0\r\n\rX")]
    [InlineData("0\r\n\n")]
    public void Decode_InvalidTrailer_Throws(string body)
        => AssertRejected(body, RejectionReason.InvalidTrailer);

    /// <summary>The chunk-size line, extensions included, is bounded (Kestrel bounds extensions too); the limit counts the CR.</summary>
    [Fact]
    public void Decode_ChunkLineOverLimit_Throws()
    {
        const int limit = 16;
        var fits = "5;" + new string('x', limit - 3) + "\r\nhello\r\n0\r\n\r\n";
        var tooLong = "5;" + new string('x', limit - 2) + "\r\nhello\r\n0\r\n\r\n";

        Assert.Equal(ChunkedDecodeStatus.Completed, ChunkedBody.EverySplit(fits, lineLimit: limit).Status);
        Assert.Equal(RejectionReason.ChunkLineTooLong, ChunkedBody.RejectEverySplit(tooLong, lineLimit: limit));
        Assert.Equal(RejectionReason.ChunkLineTooLong, ChunkedBody.RejectEverySplit("5;" + new string('x', 100), lineLimit: limit));
    }

    /// <summary>The trailer section is bounded (RFC 9110 §6.5: like a field section); the limit counts every byte after the last chunk's line.</summary>
    [Fact]
    public void Decode_TrailerSectionOverLimit_Throws()
    {
        const int limit = 32;
        var fits = "0\r\nX-Long: " + new string('a', limit - 12) + "\r\n\r\n";
        var tooLarge = "0\r\nX-Long: " + new string('a', limit - 11) + "\r\n\r\n";

        Assert.Equal(ChunkedDecodeStatus.Completed, ChunkedBody.EverySplit(fits, trailerLimit: limit).Status);
        Assert.Equal(RejectionReason.InvalidTrailer, ChunkedBody.RejectEverySplit(tooLarge, trailerLimit: limit));
    }

    /// <summary>Copying the decoder looks ahead: decoding the copy leaves the original where it was.</summary>
    [Fact]
    public void Decode_Copy_DoesNotAdvanceOriginal()
    {
        var decoder = new ChunkedDecoder(ChunkedBody.LineLimit, ChunkedBody.TrailerLimit);
        var rest = Segmented.Create(Text.Bytes("lo\r\n0\r\nX: y\r\n\r\n"), 1, 7);
        Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.NeedMoreData, "hel", 6), ChunkedBody.Decode(ref decoder, Segmented.Create(Text.Bytes("5\r\nhel"))));

        var copy = decoder;
        var ahead = ChunkedBody.Decode(ref copy, rest);

        Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.Completed, "lo", rest.Length), ahead);
        Assert.True(copy.IsCompleted);
        Assert.False(decoder.IsCompleted);
        Assert.Equal(ahead, ChunkedBody.Decode(ref decoder, rest));
    }

    /// <summary>Once completed, the decoder consumes nothing more.</summary>
    [Fact]
    public void Decode_AfterCompleted_ConsumesNothing()
    {
        var decoder = new ChunkedDecoder(ChunkedBody.LineLimit, ChunkedBody.TrailerLimit);
        Assert.Equal(ChunkedDecodeStatus.Completed, ChunkedBody.Decode(ref decoder, new ReadOnlySequence<byte>(Text.Bytes("0\r\n\r\n"))).Status);

        var again = ChunkedBody.Decode(ref decoder, new ReadOnlySequence<byte>(Text.Bytes("5\r\nhello\r\n")));

        Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.Completed, "", 0), again);
    }

    /// <summary>
    /// RFC 9112 §7.1.2: a decoder that yields the trailer section stops right after the last chunk's line, every split
    /// alike, its data all returned and the section (empty or not) left unconsumed for its caller.
    /// </summary>
    [Theory]
    [InlineData("5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n", "hello", 13)]
    [InlineData("5\r\nhello\r\n0\r\n\r\n", "hello", 13)]
    [InlineData("0;ext=1\r\nExpires: never\r\n\r\n", "", 9)]
    public void Decode_YieldingTrailerSection_StopsAtIt(string body, string data, int consumed)
    {
        var result = Segmented.SameForEverySplit(Text.Bytes(body), input =>
        {
            var decoder = new ChunkedDecoder(ChunkedBody.LineLimit, ChunkedBody.TrailerLimit, yieldsTrailerSection: true);
            return ChunkedBody.Decode(ref decoder, input);
        });

        Assert.Equal(new ChunkedDecodeResult(ChunkedDecodeStatus.TrailerSection, data, consumed), result);
    }

    private static void AssertRejected(string body, RejectionReason expected)
    {
        var reason = ChunkedBody.RejectEverySplit(body);

        Assert.Equal(expected, reason);
        Assert.Equal(400, ErrorPolicy.StatusCode(reason));
    }
}
