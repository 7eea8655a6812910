using System.Diagnostics;
using System.Net.Sockets;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// Stopping the proxy (SIGTERM) drains: the listener closes, idle connections close at once, a request in flight
/// finishes within <c>shutdownTimeoutMs</c>, and past it what is left is aborted.
/// </summary>
public sealed class GracefulShutdownTests
{
    private const string Get = "GET / HTTP/1.1\r\nHost: client.test\r\n\r\n";

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Stop_InFlightRequestCompletesIdleConnectionClosedNewOnesRefused(string mode)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = HeldResponseOrigin(release.Task);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "shutdownTimeoutMs=6000");
        await using var idle = await proxy.ConnectAsync();
        await idle.SendAsync("GET /idle HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await idle.ReadResponseAsync();
        await using var busy = await proxy.ConnectAsync();
        await busy.SendAsync("GET /held HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await Deadline.UntilAsync(() => origin.Requests.Any(request => request.Target == "/held"), "The held request reaching the origin");

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        var clock = Stopwatch.StartNew();
        var stopping = proxy.StopAsync(stopLimit.Token);

        await idle.AssertClosedByPeerAsync();
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(4), $"The idle connection closed after {clock.Elapsed}, not at once.");
        await AssertNotServedAsync(proxy.Port);
        Assert.False(stopping.IsCompleted, "The proxy stopped before its request in flight completed.");

        release.SetResult();
        var response = await busy.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        Assert.Equal("held", response.BodyText);
        await busy.AssertClosedByPeerAsync();
        await stopping.WaitAsync(Deadline.Io);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Stop_RequestStillInFlightAtShutdownTimeoutAborted(string mode)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = HeldResponseOrigin(release.Task);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "shutdownTimeoutMs=1000");
        await using var busy = await proxy.ConnectAsync();
        await busy.SendAsync("GET /held HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await Deadline.UntilAsync(() => origin.Requests.Count == 1, "The held request reaching the origin");

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        var clock = Stopwatch.StartNew();
        await proxy.StopAsync(stopLimit.Token).WaitAsync(Deadline.Io);
        var stopped = clock.Elapsed;
        await busy.AssertClosedByPeerAsync();
        release.SetResult();

        Assert.InRange(stopped, TimeSpan.FromMilliseconds(900), TimeSpan.FromSeconds(5));
    }

    /// <summary>An origin that answers <c>/held</c> only once <paramref name="release"/> completes, anything else at once.</summary>
    private static ScriptedOrigin HeldResponseOrigin(Task release) => ScriptedOrigin.Start(async connection =>
    {
        while (await connection.ReadRequestAsync() is { } request)
        {
            if (request.Target == "/held")
            {
                await release.WaitAsync(Deadline.Io);
            }

            var body = request.Target.TrimStart('/');
            await connection.SendAsync($"HTTP/1.1 200 OK\r\nContent-Length: {body.Length}\r\n\r\n{body}");
        }
    });

    /// <summary>A connection attempt is refused, or accepted and closed without any response.</summary>
    private static async Task AssertNotServedAsync(int port)
    {
        RawHttpClient client;
        try
        {
            client = await RawHttpClient.ConnectAsync(port);
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionRefused)
        {
            return;
        }

        await using (client)
        {
            try
            {
                await client.SendAsync(Get);
            }
            catch (IOException)
            {
                return;
            }

            await client.AssertClosedByPeerAsync();
        }
    }
}
