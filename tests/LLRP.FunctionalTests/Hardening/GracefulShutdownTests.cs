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

    // RFC 9112 §9.6: when the proxy stops, every request it already sent upstream is answered; only the last response
    // of the batch says close (one before it would tell the client that the later requests were never processed).
    // Raw mode only: the other modes send one request at a time.
    [Theory]
    [MemberData(nameof(LlrpModes.Raw), MemberType = typeof(LlrpModes))]
    public async Task Stop_PipelinedRequestsAlreadyForwardedAllAnsweredLastSaysClose(string mode)
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            // Both requests are read before either is answered, so the proxy has sent both when it is stopped.
            if (await connection.ReadRequestAsync() is null || await connection.ReadRequestAsync() is null)
            {
                return;
            }

            await release.Task.WaitAsync(Deadline.Io);
            await connection.SendAsync("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nheldHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\norder");
            while (await connection.ReadRequestAsync() is not null)
            {
                // Nothing more is sent; the connection stays open until the proxy closes it.
            }
        });
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "shutdownTimeoutMs=6000");
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync("GET /held HTTP/1.1\r\nHost: client.test\r\n\r\nPOST /order HTTP/1.1\r\nHost: client.test\r\nContent-Length: 4\r\n\r\nbody");
        await Deadline.UntilAsync(() => origin.Requests.Any(request => request.Target == "/order"), "Both requests reaching the origin");

        using var stopLimit = new CancellationTokenSource(Deadline.Io);
        var stopping = proxy.StopAsync(stopLimit.Token);
        release.SetResult();
        var held = await client.ReadResponseAsync();
        var order = await client.ReadResponseAsync("POST");

        Assert.Equal("held", held.BodyText);
        Assert.DoesNotContain("close", held.Head.Tokens("Connection"));
        Assert.Equal("order", order.BodyText);
        Assert.Contains("close", order.Head.Tokens("Connection"));
        await client.AssertClosedByPeerAsync();
        await stopping.WaitAsync(Deadline.Io);
        Assert.Single(origin.Requests, request => request.Target == "/order");
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
