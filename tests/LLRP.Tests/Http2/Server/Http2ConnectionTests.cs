using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using LLRP.Http2.Codec;
using LLRP.Http2.Server;
using LLRP.Proxy;
using Microsoft.AspNetCore.Http;
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
        var block = new ArrayBufferWriter<byte>();
        foreach (var (name, value) in new[] { (":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "example.com") })
        {
            HpackEncoder.EncodeField(block, Encoding.ASCII.GetBytes(name), Encoding.ASCII.GetBytes(value));
        }

        FrameWriter.WriteHeaders(client, 1, block.WrittenSpan, endStream: true, 16_384);
        await client.FlushAsync();

        var body = await ResponseBodyAsync(connection.ClientInput, streamId: 1).WaitAsync(Bound);
        await client.CompleteAsync();
        await run.WaitAsync(Bound);

        Assert.Equal("read 0 bytes", body);
    }

    private static async Task ReadBodyAsync(HttpContext context)
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
