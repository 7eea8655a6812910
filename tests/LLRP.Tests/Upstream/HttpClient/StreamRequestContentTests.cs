using System.IO.Pipelines;
using LLRP.Upstream.HttpClient;

namespace LLRP.Tests.Upstream.HttpClient;

/// <summary>
/// An HTTP/2 stream's request body sent to HttpClient, which sends a request again when an HTTP/2 destination refused its
/// stream (RFC 9113 §8.7, REFUSED_STREAM): the client's body is read once, so only an attempt that took none of it may be
/// repeated.
/// </summary>
public sealed class StreamRequestContentTests
{
    private static readonly byte[] Body = "the body of a refused request"u8.ToArray();

    [Fact]
    public async Task SentAgainAfterPartWasTaken_FailsAndSendsNothing()
    {
        var source = new Pipe();
        using var content = new StreamRequestContent(source.Reader.AsStream(), CancellationToken.None);
        await source.Writer.WriteAsync(Body.AsMemory(0, 10));
        using var refused = new CancellationTokenSource();
        var first = new MemoryStream();
        var attempt = content.CopyToAsync(first, refused.Token);
        while (first.Length < 10)
        {
            await Task.Yield();
        }

        await refused.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => attempt);
        await source.Writer.WriteAsync(Body.AsMemory(10));
        await source.Writer.CompleteAsync();

        var again = new MemoryStream();
        var failed = await Assert.ThrowsAsync<HttpRequestException>(() => content.CopyToAsync(again));
        Assert.IsType<IOException>(failed.InnerException);
        Assert.Equal(0, again.Length);
    }

    [Fact]
    public async Task SentAgainWhenNothingWasTaken_SendsTheWholeBody()
    {
        var source = new Pipe();
        using var content = new StreamRequestContent(source.Reader.AsStream(), CancellationToken.None);
        using var refused = new CancellationTokenSource();
        var attempt = content.CopyToAsync(new MemoryStream(), refused.Token);
        await refused.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => attempt);
        await source.Writer.WriteAsync(Body);
        await source.Writer.CompleteAsync();

        var again = new MemoryStream();
        await content.CopyToAsync(again);
        Assert.Equal(Body, again.ToArray());
    }
}
