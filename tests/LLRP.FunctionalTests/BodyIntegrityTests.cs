using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>Bodies of every size stream through the proxy intact, in both directions (RFC 9112 §6, §7.1).</summary>
public sealed class BodyIntegrityTests
{
    private const int MaxClientWrite = 64 * 1024;

    private static readonly int[] Sizes = [0, 1, 64 * 1024, 1_000_000, 8 * 1024 * 1024];

    /// <summary>
    /// Echo sizes in the HttpClient modes: HttpClient sends the whole request body before it reads the response, so an
    /// echo larger than the socket buffers on the way can stall (a documented difference of those modes).
    /// </summary>
    private static readonly int[] HttpClientEchoSizes = [0, 1, 64 * 1024, 1_000_000, 3_000_000];

    /// <summary>Configuration, body size, and whether the client sends it chunked.</summary>
    public static TheoryData<string, int, bool> Echoes => Uploads(mode => LlrpModes.IsRaw(mode) ? Sizes : HttpClientEchoSizes);

    /// <inheritdoc cref="Echoes"/>
    public static TheoryData<string, int, bool> Sinks => Uploads(_ => Sizes);

    public static TheoryData<string, int> Downloads => LlrpModes.Cross(LlrpModes.EveryWithSharedClients, Sizes);

    public static TheoryData<string, bool> FramedEchoes => LlrpModes.Cross(LlrpModes.EveryWithSharedClients, false, true);

    [Theory]
    [MemberData(nameof(Echoes))]
    public async Task Echo_BodyReturnedIntact(string mode, int size, bool chunked)
    {
        var body = RandomBody(size);
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        var sending = PostAsync(client, "/echo", body, chunked, new Random(size));
        var response = await client.ReadResponseAsync();
        await sending;

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(body.Length, response.Body.Length);
        Assert.Equal(DownstreamBody.Sha256(body), DownstreamBody.Sha256(response.Body));
    }

    // RFC 9112 §6.2 and §7.1: a non-empty echo keeps the framing the client used, through origin and proxy.
    [Theory]
    [MemberData(nameof(FramedEchoes))]
    public async Task Echo_FramingKept(string mode, bool chunked)
    {
        var body = RandomBody(100_000);
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        var sending = PostAsync(client, "/echo", body, chunked, new Random(3));
        var response = await client.ReadResponseAsync();
        await sending;

        Assert.Equal(chunked ? BodyFraming.Chunked : BodyFraming.ContentLength, response.Framing);
        Assert.Equal(DownstreamBody.Sha256(body), DownstreamBody.Sha256(response.Body));
    }

    [Theory]
    [MemberData(nameof(Sinks))]
    public async Task Sink_BodyReceivedIntact(string mode, int size, bool chunked)
    {
        var body = RandomBody(size);
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        var sending = PostAsync(client, "/sink", body, chunked, new Random(size));
        var response = await client.ReadResponseAsync();
        await sending;

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(DownstreamBody.SinkReport(body), response.BodyText.Trim());
    }

    [Theory]
    [MemberData(nameof(Downloads))]
    public async Task Download_ContentLengthBodyIntact(string mode, int size)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync($"GET /?s={size} HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(BodyFraming.ContentLength, response.Framing);
        Assert.Equal(DownstreamBody.Sha256(DownstreamBody.Pattern(size)), DownstreamBody.Sha256(response.Body));
    }

    [Theory]
    [MemberData(nameof(Downloads))]
    public async Task Download_ChunkedBodyIntact(string mode, int size)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        await using var client = await stack.ConnectAsync();

        await client.SendAsync($"GET /chunked?s={size}&n=16 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(DownstreamBody.Sha256(DownstreamBody.Pattern(size)), DownstreamBody.Sha256(response.Body));
    }

    private static TheoryData<string, int, bool> Uploads(Func<string, int[]> sizes)
    {
        var data = new TheoryData<string, int, bool>();
        foreach (var mode in LlrpModes.EveryWithSharedClients)
        {
            foreach (var size in sizes(mode))
            {
                data.Add(mode, size, false);
                data.Add(mode, size, true);
            }
        }

        return data;
    }

    private static byte[] RandomBody(int size)
    {
        var body = new byte[size];
        new Random(size + 1).NextBytes(body);
        return body;
    }

    /// <summary>Sends a POST with <paramref name="body"/> in writes of random sizes; chunked, each write is one chunk.</summary>
    private static async Task PostAsync(RawHttpClient client, string target, byte[] body, bool chunked, Random random)
    {
        await Task.Yield();
        var framing = chunked ? "Transfer-Encoding: chunked" : $"Content-Length: {body.Length}";
        await client.SendAsync($"POST {target} HTTP/1.1\r\nHost: client.test\r\nContent-Type: application/octet-stream\r\n{framing}\r\n\r\n");
        if (!chunked)
        {
            await client.SendInPiecesAsync(body, random, MaxClientWrite);
            return;
        }

        for (var sent = 0; sent < body.Length;)
        {
            var size = Math.Min(body.Length - sent, random.Next(1, MaxClientWrite + 1));
            await client.SendAsync(Encoding.ASCII.GetBytes($"{size:x}\r\n"));
            await client.SendAsync(body.AsMemory(sent, size));
            await client.SendAsync("\r\n"u8.ToArray());
            sent += size;
        }

        await client.SendAsync("0\r\n\r\n");
    }
}
