using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using LLRP.Http2;
using LLRP.Http2.Codec;
using LLRP.Http2.Server;
using LLRP.Proxy;
using LLRP.Upstream;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Hosting.Internal;
using Microsoft.Extensions.Logging.Abstractions;

namespace LLRP.Tests.Http2.Server;

/// <summary>
/// LLRP's own HTTP/2 server on one connection over in-memory pipes, with an application of the test's own instead of
/// the front end: what the server gives an application, seen in the frames it sends back.
/// </summary>
public sealed class Http2ConnectionTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    private static readonly ServerLimits Limits = new(
        MaxConcurrentStreams: 8,
        MaxFrameSize: 16_384,
        InitialStreamWindowSize: 65_535,
        InitialConnectionWindowSize: 65_535,
        MaxHeaderListSize: 8192,
        MaxHeaderFieldSize: 4096,
        MaxHeaderCount: 32,
        KeepAliveTimeoutMs: 600_000,
        RequestHeadersTimeoutMs: 600_000);

    // RFC 9113 §8.1: END_STREAM on HEADERS ends the request; reading its body ends at once, with no bytes.
    [Fact]
    public async Task EndStreamOnHeaders_RequestBodyReadEndsEmpty_Rfc9113Section8_1()
    {
        using var tracker = new ClientConnectionTracker(new ApplicationLifetime(NullLogger<ApplicationLifetime>.Instance));
        var connection = new PipeConnection();
        var run = new Http2Connection(connection, ReadBodyAsync, Limits, tracker, tls: false).RunAsync();

        var client = connection.ClientOutput;
        client.Write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8);
        FrameWriter.WriteSettings(client, []);
        FrameWriter.WriteHeaders(client, 1, RequestBlock(), endStream: true, 16_384);
        await client.FlushAsync();

        var body = await ResponseBodyAsync(connection.ClientInput, streamId: 1).WaitAsync(Bound);
        await client.CompleteAsync();
        await run.WaitAsync(Bound);

        Assert.Equal("read 0 bytes", body);
    }

    // RFC 9113 §5.4.1: the GOAWAY of a connection error is the last frame the server sends, even while a stream is
    // writing its response. Each round opens a stream whose response is written byte by byte until the request is aborted, then sends
    // DATA on stream 0 (a connection error, §6.1).
    [Fact]
    public async Task ConnectionErrorWhileStreamWrites_GoAwayIsTheLastFrame_Rfc9113Section5_4_1()
    {
        using var tracker = new ClientConnectionTracker(new ApplicationLifetime(NullLogger<ApplicationLifetime>.Instance));
        for (var round = 0; round < 50; round++)
        {
            var connection = new PipeConnection();
            var writing = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var run = new Http2Connection(connection, context => WriteWithoutEndAsync(context, writing), Limits, tracker, tls: false).RunAsync();
            var output = ReadToEndAsync(connection.ClientInput);

            var client = connection.ClientOutput;
            client.Write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8);
            FrameWriter.WriteSettings(client, [(0x4, (uint)int.MaxValue)]);
            FrameWriter.WriteWindowUpdate(client, 0, int.MaxValue - 65_535);
            FrameWriter.WriteHeaders(client, 1, RequestBlock(), endStream: true, 16_384);
            await client.FlushAsync();
            await writing.Task.WaitAsync(Bound);
            FrameWriter.WriteData(client, 0, "x"u8, endStream: false);
            await client.FlushAsync();

            var frames = await output.WaitAsync(Bound);
            await client.CompleteAsync();
            await run.WaitAsync(Bound);

            Assert.Equal(Http2FrameType.GoAway, frames[^1]);
        }
    }

    // RFC 9113 §8.3.2 and §4.3: field lines given as bytes (IResponseFieldLinesFeature) follow :status in one field block,
    // and fields of HttpResponse.Headers after them; the block decodes back to exactly those fields (RFC 7541).
    [Fact]
    public async Task FieldLinesAsBytes_AfterStatus_BeforeHeaderDictionary_Rfc9113Section8_3_2()
    {
        var response = await ExchangeAsync(async context =>
        {
            var lines = context.Features.GetRequiredFeature<IResponseFieldLinesFeature>().StartFieldLines(201);
            lines.Field("X-A"u8, "1"u8);
            lines.Field("Connection"u8, "close"u8);
            lines.ContentLength(2);
            context.Response.Headers["x-b"] = "2";
            await context.Response.WriteAsync("hi");
        });

        Assert.Equal([":status: 201", "x-a: 1", "content-length: 2", "x-b: 2"], response.Fields);
        Assert.Equal("hi", response.Body);
    }

    // RFC 9113 §8.1: a body taken whole goes out as HEADERS then DATA carrying END_STREAM, the same frames as a body written
    // and ended; the field block carries only the fields given.
    [Fact]
    public async Task WholeBody_HeadersThenDataEndingTheStream_Rfc9113Section8_1()
    {
        var taken = false;
        var response = await ExchangeAsync(context =>
        {
            context.Features.GetRequiredFeature<IResponseFieldLinesFeature>().StartFieldLines(200).ContentLength(5);
            taken = ((IWholeBodyWriter)context.Response.BodyWriter).TryWriteWhole(new ReadOnlySequence<byte>("hello"u8.ToArray()));
            return ValueTask.CompletedTask;
        });

        Assert.True(taken);
        Assert.Equal([":status: 200", "content-length: 5"], response.Fields);
        Assert.Equal("hello", response.Body);
        Assert.Equal([Http2FrameType.Headers, Http2FrameType.Data], response.Frames);
    }

    // A body is not taken whole once bytes were written or an OnStarting callback waits (it may still change the head): it is
    // then written as usual, after the bytes already written.
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task WholeBody_AfterBytesOrWithOnStarting_NotTaken_WrittenAsUsual(bool bytesFirst)
    {
        var taken = true;
        var response = await ExchangeAsync(async context =>
        {
            if (bytesFirst)
            {
                context.Response.BodyWriter.Write("<"u8);
            }
            else
            {
                context.Response.OnStarting(_ => Task.CompletedTask, context);
            }

            taken = ((IWholeBodyWriter)context.Response.BodyWriter).TryWriteWhole(new ReadOnlySequence<byte>("hello"u8.ToArray()));
            await context.Response.WriteAsync("hello");
        });

        Assert.False(taken);
        Assert.Equal(bytesFirst ? "<hello" : "hello", response.Body);
    }

    // RFC 9113 §6.9.1: a body larger than the stream's send window is not taken whole; written as usual, it goes out as the
    // client's WINDOW_UPDATE lets it.
    [Fact]
    public async Task WholeBody_LargerThanTheSendWindow_NotTaken_SentAsTheWindowOpens_Rfc9113Section6_9_1()
    {
        var taken = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        var response = await ExchangeAsync(
            async context =>
            {
                taken.SetResult(((IWholeBodyWriter)context.Response.BodyWriter).TryWriteWhole(new ReadOnlySequence<byte>("hello"u8.ToArray())));
                await context.Response.WriteAsync("hello");
            },
            initialWindow: 4,
            afterRequest: async client =>
            {
                Assert.False(await taken.Task.WaitAsync(Bound));
                FrameWriter.WriteWindowUpdate(client, 1, 100);
                await client.FlushAsync();
            });

        Assert.Equal("hello", response.Body);
    }

    /// <summary>
    /// Opens stream 1 with a GET on a connection whose application is <paramref name="application"/>, then reads the
    /// response: its field blocks decoded (RFC 7541), its DATA as text, the types of its frames.
    /// </summary>
    private static async Task<Response> ExchangeAsync(
        Func<HttpContext, ValueTask> application, uint initialWindow = 65_535, Func<PipeWriter, Task>? afterRequest = null)
    {
        using var tracker = new ClientConnectionTracker(new ApplicationLifetime(NullLogger<ApplicationLifetime>.Instance));
        var connection = new PipeConnection();
        var run = new Http2Connection(connection, application, Limits, tracker, tls: false).RunAsync();

        var client = connection.ClientOutput;
        client.Write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8);
        FrameWriter.WriteSettings(client, [(0x4, initialWindow)]);
        FrameWriter.WriteHeaders(client, 1, RequestBlock(), endStream: true, 16_384);
        await client.FlushAsync();
        if (afterRequest is not null)
        {
            await afterRequest(client);
        }

        var response = await ReadResponseAsync(connection.ClientInput).WaitAsync(Bound);
        await client.CompleteAsync();
        await run.WaitAsync(Bound);
        return response;
    }

    private static async Task<Response> ReadResponseAsync(PipeReader input)
    {
        var response = new Response();
        var decoder = new HpackDecoder(4096, int.MaxValue);
        while (true)
        {
            var result = await input.ReadAsync();
            var buffer = result.Buffer;
            while (FrameHeader.TryRead(buffer, out var header) && buffer.Length >= FrameHeader.Size + header.Length)
            {
                var payload = buffer.Slice(FrameHeader.Size, header.Length).ToArray();
                buffer = buffer.Slice(FrameHeader.Size + header.Length);
                if (header.StreamId != 1 || header.Type is not (Http2FrameType.Headers or Http2FrameType.Data))
                {
                    continue;
                }

                response.Frames.Add(header.Type);
                if (header.Type == Http2FrameType.Headers)
                {
                    decoder.Decode(payload, response);
                }
                else
                {
                    response.Body += Encoding.ASCII.GetString(payload);
                }

                if ((header.Flags & Http2FrameFlags.EndStream) != 0)
                {
                    input.AdvanceTo(buffer.Start);
                    return response;
                }
            }

            Assert.False(result.IsCompleted, "The connection ended before the response did.");
            input.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private sealed class Response : IHeaderSink
    {
        public List<string> Fields { get; } = [];

        public List<Http2FrameType> Frames { get; } = [];

        public string Body { get; set; } = "";

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) => Fields.Add($"{Encoding.ASCII.GetString(name)}: {Encoding.ASCII.GetString(value)}");
    }

    // RFC 9113 §8.2.3, §8.3.1: the server writes the head as HTTP/1.1 bytes while it decodes the fields: the request line
    // from :method and :path, Host from :authority, each field in order, the cookie fields joined with "; " in one line,
    // and chunked framing for a body that may follow without a content-length.
    [Fact]
    public async Task FieldsDecoded_HeadWrittenAsHttp11_CookiesJoined_Rfc9113Section8_2_3()
    {
        var body = await RespondAsync(static context =>
            context.Features.Get<IRequestHeadBytesFeature>()!.TryGetHead(out var head) ? Encoding.Latin1.GetString(head.Span) : "not written");

        Assert.Equal("GET /p?q=1 HTTP/1.1\r\nhost: example.com\r\nx-a: 1\r\ncookie: a=1; b=2\r\nTransfer-Encoding: chunked\r\n\r\n", body);
    }

    // The fields become strings only when asked for, made from the written field lines (the cookies joined, Host from
    // :authority); from then on the strings are what the head is rendered from, so the written bytes are no longer offered.
    [Fact]
    public async Task HeadersAskedFor_MadeFromTheWrittenFields_WrittenHeadNoLongerOffered()
    {
        var body = await RespondAsync(static context =>
        {
            var fields = context.Request.Headers;
            var written = context.Features.Get<IRequestHeadBytesFeature>()!.TryGetHead(out _);
            return $"{fields.Host}|{fields.Cookie}|{fields["x-a"]}|{fields.Count}|{written}";
        });

        Assert.Equal("example.com|a=1; b=2|1|3|False", body);
    }

    // Reading the target as a string leaves the written head offered; a method or target replaced through the request
    // feature is what the head is then rendered from, so the written bytes are no longer offered.
    [Fact]
    public async Task TargetReadOrReplaced_WrittenHeadOfferedOnlyUntilReplaced()
    {
        var body = await RespondAsync(static context =>
        {
            var request = context.Features.Get<IHttpRequestFeature>()!;
            var written = context.Features.Get<IRequestHeadBytesFeature>()!;
            var read = $"{request.RawTarget} {request.Path} {request.QueryString} {written.TryGetHead(out _)}";
            request.RawTarget = "/other";
            return $"{read}|{written.TryGetHead(out _)}";
        });

        Assert.Equal("/p?q=1 /p ?q=1 True|False", body);
    }

    // A stream object serves one request after another on its connection: a feature the application set (or hid, set to
    // null) holds for its own request only, and a response taken whole, one written through the response pipe and one taken
    // whole again each arrive whole on the same stream object (RFC 9113 §5.1: streams 1, 3, 5, one after another).
    [Fact]
    public async Task StreamsOneAfterAnother_FeaturesSetAndResponsePipe_HoldForTheirOwnRequest_Rfc9113Section5_1()
    {
        using var tracker = new ClientConnectionTracker(new ApplicationLifetime(NullLogger<ApplicationLifetime>.Instance));
        var connection = new PipeConnection();
        var requests = 0;
        var run = new Http2Connection(connection, async context =>
        {
            var features = context.Features;
            var seen = $"{features.Get<IHttpResponseTrailersFeature>() is not null}|{features[typeof(string)] ?? "none"}|{features.Count()}";
            switch (requests++)
            {
                case 0:
                    features.Set<IHttpResponseTrailersFeature>(null);
                    features[typeof(string)] = "set";
                    seen += $"|{features.Get<IHttpResponseTrailersFeature>() is not null}|{features[typeof(string)]}|{features.Count()}";
                    ((IWholeBodyWriter)context.Response.BodyWriter).TryWriteWhole(new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes(seen)));
                    break;
                case 1:
                    await context.Response.WriteAsync(seen);
                    break;
                default:
                    ((IWholeBodyWriter)context.Response.BodyWriter).TryWriteWhole(new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes(seen)));
                    break;
            }
        }, Limits, tracker, tls: false).RunAsync();

        var client = connection.ClientOutput;
        client.Write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8);
        FrameWriter.WriteSettings(client, []);
        var bodies = new List<string>();
        foreach (var id in (int[])[1, 3, 5])
        {
            FrameWriter.WriteHeaders(client, id, RequestBlock(), endStream: true, 16_384);
            await client.FlushAsync();
            bodies.Add(await ResponseBodyAsync(connection.ClientInput, streamId: id).WaitAsync(Bound));
        }

        await client.CompleteAsync();
        await run.WaitAsync(Bound);

        Assert.Equal(["True|none|13|False|set|13", "True|none|13", "True|none|13"], bodies);
    }

    /// <summary>One request with split cookies and a body to follow, answered with what <paramref name="answer"/> makes of its context.</summary>
    private static async Task<string> RespondAsync(Func<HttpContext, string> answer)
    {
        using var tracker = new ClientConnectionTracker(new ApplicationLifetime(NullLogger<ApplicationLifetime>.Instance));
        var connection = new PipeConnection();
        var run = new Http2Connection(connection, async context => await context.Response.WriteAsync(answer(context)), Limits, tracker, tls: false).RunAsync();

        var block = new ArrayBufferWriter<byte>();
        (string, string)[] fields = [(":method", "GET"), (":scheme", "http"), (":path", "/p?q=1"), (":authority", "example.com"), ("cookie", "a=1"), ("x-a", "1"), ("cookie", "b=2")];
        foreach (var (name, value) in fields)
        {
            HpackEncoder.EncodeField(block, Encoding.ASCII.GetBytes(name), Encoding.ASCII.GetBytes(value));
        }

        var client = connection.ClientOutput;
        client.Write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8);
        FrameWriter.WriteSettings(client, []);
        FrameWriter.WriteHeaders(client, 1, block.WrittenSpan, endStream: false, 16_384);
        FrameWriter.WriteData(client, 1, ""u8, endStream: true);
        await client.FlushAsync();

        var body = await ResponseBodyAsync(connection.ClientInput, streamId: 1).WaitAsync(Bound);
        await client.CompleteAsync();
        await run.WaitAsync(Bound);
        return body;
    }

    private static async ValueTask WriteWithoutEndAsync(HttpContext context, TaskCompletionSource writing)
    {
        try
        {
            while (!context.RequestAborted.IsCancellationRequested)
            {
                await context.Response.Body.WriteAsync("x"u8.ToArray());
                await context.Response.Body.FlushAsync();
                writing.TrySetResult();
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException)
        {
            // The connection ended under the stream.
        }
    }

    private static byte[] RequestBlock()
    {
        var block = new ArrayBufferWriter<byte>();
        foreach (var (name, value) in new[] { (":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "example.com") })
        {
            HpackEncoder.EncodeField(block, Encoding.ASCII.GetBytes(name), Encoding.ASCII.GetBytes(value));
        }

        return block.WrittenSpan.ToArray();
    }

    /// <summary>The types of the frames the server sent, in order, until it completed its output.</summary>
    private static async Task<List<Http2FrameType>> ReadToEndAsync(PipeReader input)
    {
        var types = new List<Http2FrameType>();
        while (true)
        {
            var result = await input.ReadAsync();
            var buffer = result.Buffer;
            while (FrameHeader.TryRead(buffer, out var header) && buffer.Length >= FrameHeader.Size + header.Length)
            {
                types.Add(header.Type);
                buffer = buffer.Slice(FrameHeader.Size + header.Length);
            }

            input.AdvanceTo(buffer.Start, buffer.End);
            if (result.IsCompleted)
            {
                return types;
            }
        }
    }

    private static async ValueTask ReadBodyAsync(HttpContext context)
    {
        var buffer = new byte[64];
        var total = 0;
        int read;
        while ((read = await context.Request.Body.ReadAsync(buffer)) > 0)
        {
            total += read;
        }

        await context.Response.WriteAsync($"read {total} bytes");
    }

    /// <summary>The DATA of stream <paramref name="streamId"/> up to its END_STREAM (RFC 9113 §6.1), as text.</summary>
    private static async Task<string> ResponseBodyAsync(PipeReader input, int streamId)
    {
        var body = new StringBuilder();
        while (true)
        {
            var result = await input.ReadAsync();
            var buffer = result.Buffer;
            while (FrameHeader.TryRead(buffer, out var header) && buffer.Length >= FrameHeader.Size + header.Length)
            {
                var payload = buffer.Slice(FrameHeader.Size, header.Length);
                buffer = buffer.Slice(payload.End);
                if (header.Type == Http2FrameType.Data && header.StreamId == streamId)
                {
                    body.Append(Encoding.ASCII.GetString(payload.ToArray()));
                    if ((header.Flags & Http2FrameFlags.EndStream) != 0)
                    {
                        input.AdvanceTo(buffer.Start);
                        return body.ToString();
                    }
                }
            }

            Assert.False(result.IsCompleted, "The connection ended before the response did.");
            input.AdvanceTo(buffer.Start, buffer.End);
        }
    }
}
