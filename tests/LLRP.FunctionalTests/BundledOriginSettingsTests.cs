using System.Diagnostics;
using LLRP.Downstream;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests;

/// <summary>The bundled origin's own settings and counters, which the benchmark's several-origin shapes use.</summary>
public sealed class BundledOriginSettingsTests
{
    [Fact]
    public async Task DelayMs_EveryResponseWaitsAtLeastTheDelayAndQueryDelayAddsToIt()
    {
        await using var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--delayMs=150"]));
        await using var client = await origin.ConnectAsync();

        var clock = Stopwatch.StartNew();
        await client.SendAsync("GET /?s=12 HTTP/1.1\r\nHost: a\r\n\r\n");
        var response = await client.ReadResponseAsync();
        var first = clock.Elapsed;
        await client.SendAsync("GET /?s=3&d=100 HTTP/1.1\r\nHost: a\r\n\r\n");
        var delayed = await client.ReadResponseAsync();
        var second = clock.Elapsed - first;

        Assert.Equal(200, response.StatusCode);
        Assert.Equal(DownstreamBody.PatternText(12), response.BodyText);
        Assert.Equal(DownstreamBody.PatternText(3), delayed.BodyText);
        Assert.True(first >= TimeSpan.FromMilliseconds(150), $"first response after {first.TotalMilliseconds} ms");
        Assert.True(second >= TimeSpan.FromMilliseconds(250), $"second response after {second.TotalMilliseconds} ms");
    }

    [Theory]
    [InlineData("-1")]
    [InlineData("abc")]
    [InlineData("3600001")]
    public void DelayMs_NotAnIntegerInRange_IsRejectedNamingTheKey(string value)
    {
        var error = Assert.Throws<ArgumentException>(() => DownstreamHost.Build(["--urls=http://127.0.0.1:0", $"--delayMs={value}"]));

        Assert.Contains("'delayMs'", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-5")]
    [InlineData("ten")]
    public void Http2MaxStreams_NotAPositiveInteger_IsRejectedNamingTheKey(string value)
    {
        var error = Assert.Throws<ArgumentException>(() => DownstreamHost.Build(["--urls=http://127.0.0.1:0", $"--http2MaxStreams={value}"]));

        Assert.Contains("'http2MaxStreams'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Requests_CountsEveryRequestReceivedThisOneIncluded()
    {
        await using var origin = await HostedApp.StartAsync(DownstreamHost.Build(["--urls=http://127.0.0.1:0", "--delayMs=50"]));
        await using var client = await origin.ConnectAsync();
        foreach (var target in new[] { "/?s=1", "/status?code=204", "/nowhere" })
        {
            await client.SendAsync($"GET {target} HTTP/1.1\r\nHost: a\r\n\r\n");
            await client.ReadResponseAsync();
        }

        await client.SendAsync("GET /requests HTTP/1.1\r\nHost: a\r\n\r\n");
        var count = await client.ReadResponseAsync();
        await client.SendAsync("GET /requests HTTP/1.1\r\nHost: a\r\n\r\n");
        var next = await client.ReadResponseAsync();

        Assert.Equal(200, count.StatusCode);
        Assert.Equal("4\n", count.BodyText);
        Assert.Equal("5\n", next.BodyText);
    }
}
