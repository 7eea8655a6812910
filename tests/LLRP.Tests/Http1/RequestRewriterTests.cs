using System.Buffers;
using System.Text;
using LLRP.Configuration;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>The request head sent downstream by the forwarding rules (RFC 9110 §7.6): exact bytes for representative client heads.</summary>
public sealed class RequestRewriterTests
{
    private const string Downstream = "http://127.0.0.1:5000/base";
    private const string Forwarded = "X-Forwarded-For: 10.0.0.1\r\nX-Forwarded-Proto: http\r\n";

    [Fact]
    public void Write_SimpleGet()
        => Assert.Equal(
            "GET /base/a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nAccept: */*\r\n" + Forwarded + "X-Forwarded-Host: example.com\r\nVia: 1.1 llrp\r\n\r\n",
            Forward("GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n"));

    /// <summary>RFC 9110 §7.6.1: Connection, the fields it names, Keep-Alive, Proxy-Connection, TE and Upgrade are hop-by-hop; RFC 9110 §10.1.4: TE: trailers is re-sent only when the client accepts trailers.</summary>
    [Fact]
    public void Write_HopByHopFieldsRemoved()
        => Assert.Equal(
            "GET /base/ HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nAccept: a\r\nTE: trailers\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 llrp\r\n\r\n",
            Forward("GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, X-Secret\r\nKeep-Alive: timeout=5\r\nProxy-Connection: keep-alive\r\n"
                + "Upgrade: websocket\r\nTE: deflate, trailers\r\nX-Secret: s\r\nAccept: a\r\n\r\n"));

    /// <summary>RFC 9110 §7.8: an upgrade the proxy tunnels is asked for again, hop by hop: Connection: upgrade and the client's Upgrade values, nothing else of Connection.</summary>
    [Fact]
    public void Write_TunnelledUpgrade_ConnectionUpgradeAndProtocolsResent()
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(
            new ReadOnlySequence<byte>(Text.Bytes("GET /ws HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Upgrade, X-Secret\r\nX-Secret: s\r\nUpgrade: websocket\r\nSec-WebSocket-Key: k\r\n\r\n")),
            head,
            RequestParsing.DefaultLimits,
            out _));
        head.RequestedUpgrades = 1;
        var output = new ArrayBufferWriter<byte>();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
        Rewriter(Downstream, preserveHost: false, forwardedHeaders: true, addVia: true).WriteHead(ref writer, head);
        writer.Commit();

        Assert.Equal(
            "GET /base/ws HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nSec-WebSocket-Key: k\r\nConnection: upgrade\r\nUpgrade: websocket\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 llrp\r\n\r\n",
            Text.Of(output.WrittenSpan));
    }

    /// <summary>RFC 9110 §10.1.4: TE is hop-by-hop; without "trailers" nothing is sent on.</summary>
    [Fact]
    public void Write_TEWithoutTrailers_Dropped()
        => Assert.Equal(
            "GET /base/ HTTP/1.1\r\nHost: 127.0.0.1:5000\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 llrp\r\n\r\n",
            Forward("GET / HTTP/1.1\r\nHost: h\r\nTE: gzip\r\n\r\n"));

    /// <summary>RFC 9112 §6.1: Transfer-Encoding is re-computed (canonical "chunked"); RFC 9110 §8.6: a list of equal Content-Lengths becomes one.</summary>
    [Theory]
    [InlineData("Transfer-Encoding: Chunked\r\n", "Transfer-Encoding: chunked\r\n")]
    [InlineData("Content-Length: 5, 5\r\nContent-Length: 5\r\n", "Content-Length: 5\r\n")]
    [InlineData("Content-Length: 007\r\n", "Content-Length: 7\r\n")]
    public void Write_FramingRecomputed(string received, string sent)
        => Assert.Equal(
            "POST /base/u HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nExpect: 100-continue\r\nTrailer: X-Sum\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 llrp\r\n" + sent + "\r\n",
            Forward("POST /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n" + received + "Trailer: X-Sum\r\n\r\n"));

    /// <summary>RFC 9110 §7.2: a proxy that is the origin's client sets Host to the downstream authority, unless told to preserve it.</summary>
    [Fact]
    public void Write_PreserveHost_KeepsClientHost()
        => Assert.Equal(
            "GET /base/ HTTP/1.1\r\nHost: Example.com:8443\r\n" + Forwarded + "X-Forwarded-Host: Example.com:8443\r\nVia: 1.1 llrp\r\n\r\n",
            Forward("GET / HTTP/1.1\r\nHost: Example.com:8443\r\n\r\n", preserveHost: true));

    /// <summary>RFC 9112 §3.2: an HTTP/1.0 request without Host still gets one, the downstream's, even when Host is preserved.</summary>
    [Fact]
    public void Write_Http10WithoutHost_DownstreamHostAndVia10()
        => Assert.Equal(
            "GET /base/x HTTP/1.1\r\nHost: 127.0.0.1:5000\r\n" + Forwarded + "Via: 1.0 llrp\r\n\r\n",
            Forward("GET /x HTTP/1.0\r\n\r\n", preserveHost: true));

    /// <summary>X-Forwarded-For is a list: every received value, in order, then the client address, on one line; Proto and Host are replaced.</summary>
    [Fact]
    public void Write_ForwardedHeaders_AppendedAndReplaced()
        => Assert.Equal(
            "GET /base/ HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nA: 1\r\nX-Forwarded-For: 1.1.1.1, 2.2.2.2, 3.3.3.3, 10.0.0.1\r\nX-Forwarded-Proto: http\r\nX-Forwarded-Host: h\r\nVia: 1.1 llrp\r\n\r\n",
            Forward("GET / HTTP/1.1\r\nX-Forwarded-For: 1.1.1.1\r\nX-Forwarded-Proto: https\r\nHost: h\r\nX-Forwarded-Host: evil\r\n"
                + "x-forwarded-for: 2.2.2.2, 3.3.3.3\r\nX-Forwarded-For:\r\nA: 1\r\n\r\n"));

    /// <summary>With forwarded headers off, received X-Forwarded-* pass through untouched and none are added.</summary>
    [Fact]
    public void Write_ForwardedHeadersOff_PassedThrough()
        => Assert.Equal(
            "GET /base/ HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nX-Forwarded-For: 1.1.1.1\r\nX-Forwarded-Proto: https\r\nVia: 1.1 llrp\r\n\r\n",
            Forward("GET / HTTP/1.1\r\nX-Forwarded-For: 1.1.1.1\r\nHost: h\r\nX-Forwarded-Proto: https\r\n\r\n", forwardedHeaders: false));

    /// <summary>RFC 9110 §7.6.3: a gateway MUST append its own entry to Via, with the protocol it received.</summary>
    [Fact]
    public void Write_Via_Appended()
        => Assert.Equal(
            "GET /base/ HTTP/1.1\r\nHost: 127.0.0.1:5000\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 cdn, 1.0 edge, 1.1 llrp\r\n\r\n",
            Forward("GET / HTTP/1.1\r\nVia: 1.1 cdn\r\nHost: h\r\nVia: 1.0 edge\r\n\r\n"));

    [Fact]
    public void Write_ViaOff_PassedThrough()
        => Assert.Equal(
            "GET /base/ HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nVia: 1.1 cdn\r\n" + Forwarded + "X-Forwarded-Host: h\r\n\r\n",
            Forward("GET / HTTP/1.1\r\nVia: 1.1 cdn\r\nHost: h\r\n\r\n", addVia: false));

    /// <summary>
    /// RFC 9112 §3.2.1: to an origin the target is origin-form, with "/" for an empty path; RFC 9112 §3.2.2: the absolute-form's
    /// authority is the client's authority; RFC 9112 §3.2.4: the asterisk-form is kept.
    /// </summary>
    [Theory]
    [InlineData("GET http://example.com:8080/x?y HTTP/1.1\r\nHost: ignored\r\n\r\n", Downstream, "GET /base/x?y HTTP/1.1\r\nHost: 127.0.0.1:5000\r\n" + Forwarded + "X-Forwarded-Host: example.com:8080\r\nVia: 1.1 llrp\r\n\r\n")]
    [InlineData("GET http://example.com?q HTTP/1.1\r\nHost: example.com\r\n\r\n", "http://backend", "GET /?q HTTP/1.1\r\nHost: backend\r\n" + Forwarded + "X-Forwarded-Host: example.com\r\nVia: 1.1 llrp\r\n\r\n")]
    [InlineData("GET http://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n", "http://backend:8080/", "GET / HTTP/1.1\r\nHost: backend:8080\r\n" + Forwarded + "X-Forwarded-Host: example.com\r\nVia: 1.1 llrp\r\n\r\n")]
    [InlineData("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", Downstream, "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:5000\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 llrp\r\n\r\n")]
    [InlineData("GET /a/b/?c HTTP/1.1\r\nHost: h\r\n\r\n", "http://backend/p/q/", "GET /p/q/a/b/?c HTTP/1.1\r\nHost: backend\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 llrp\r\n\r\n")]
    public void Write_Target(string request, string downstream, string expected)
        => Assert.Equal(expected, Forward(request, downstream: downstream));

    /// <summary>RFC 9112 §3.2.2 with PreserveHost: the absolute-form's authority, not the received Host, is the one kept.</summary>
    [Fact]
    public void Write_AbsoluteFormPreserveHost_UsesTargetAuthority()
        => Assert.Equal(
            "GET /base/x HTTP/1.1\r\nHost: example.com:8080\r\n" + Forwarded + "X-Forwarded-Host: example.com:8080\r\nVia: 1.1 llrp\r\n\r\n",
            Forward("GET http://example.com:8080/x HTTP/1.1\r\nHost: ignored\r\n\r\n", preserveHost: true));

    /// <summary>A head parsed from any split of its bytes is written identically.</summary>
    [Fact]
    public void Write_EverySplit_SameBytes()
    {
        var request = Text.Bytes("POST /u HTTP/1.1\r\nHost: h\r\nConnection: X-A\r\nX-A: 1\r\nX-B: 2\r\nTransfer-Encoding: chunked\r\nVia: 1.1 c\r\n\r\n");

        var sent = Segmented.SameForEverySplit(request, input => Write(input, Rewriter()), maxSplitPoints: 1);

        Assert.Equal(
            "POST /base/u HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nX-B: 2\r\n" + Forwarded + "X-Forwarded-Host: h\r\nVia: 1.1 c, 1.1 llrp\r\nTransfer-Encoding: chunked\r\n\r\n",
            sent);
    }

    /// <summary>Every mode takes its fields from <see cref="RequestRewriter.WriteFields"/>: the same ones the raw head carries, Host first, no framing.</summary>
    [Fact]
    public void WriteFields_TheHeadsFieldsWithoutFraming()
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(new ReadOnlySequence<byte>(Text.Bytes("POST /u HTTP/1.1\r\nHost: h\r\nConnection: X-A\r\nX-A: 1\r\nX-B: 2\r\nTE: trailers\r\nContent-Length: 3\r\n\r\n")), head, RequestParsing.DefaultLimits, out _));
        var sink = new FieldRecorder();

        Rewriter().WriteFields(head, ref sink);

        Assert.Equal("Host: 127.0.0.1:5000|X-B: 2|TE: trailers|X-Forwarded-For: 10.0.0.1|X-Forwarded-Proto: http|X-Forwarded-Host: h|Via: 1.1 llrp", sink.ToString());
    }

    private static RequestRewriter Rewriter(string downstream = Downstream, bool preserveHost = false, bool forwardedHeaders = true, bool addVia = true)
    {
        var endpoint = DestinationEndpoint.TryParse(downstream)!;
        return new RequestRewriter(endpoint.Authority, endpoint.PathPrefix, Encoding.ASCII.GetBytes("10.0.0.1"), "http"u8.ToArray(), new RewriteSettings(preserveHost, forwardedHeaders, addVia));
    }

    private static string Forward(string request, string downstream = Downstream, bool preserveHost = false, bool forwardedHeaders = true, bool addVia = true)
        => Write(new ReadOnlySequence<byte>(Text.Bytes(request)), Rewriter(downstream, preserveHost, forwardedHeaders, addVia));

    private static string Write(ReadOnlySequence<byte> request, RequestRewriter rewriter)
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(request, head, RequestParsing.DefaultLimits, out _));
        var output = new ArrayBufferWriter<byte>();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(output, 0);
        rewriter.WriteHead(ref writer, head);
        writer.Commit();
        return Text.Of(output.WrittenSpan);
    }
}
