using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Startup;

/// <summary>
/// SIGTERM on the proxy process: it logs the drain it begins, the connections it aborts at <c>shutdownTimeoutMs</c>,
/// and its stop, then exits 0 as soon as the last client connection is gone.
/// </summary>
public sealed class ShutdownTests
{
    [Fact]
    public async Task Sigterm_IdleConnection_ClosedLoggedAndExitZero()
    {
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0", "--admin.urls=http://127.0.0.1:0", $"--origin.urls=http://127.0.0.1:{LoopbackPort.Closed()}"]);
        var port = await proxy.ListeningPortAsync("LLRP listening on ");
        var admin = await proxy.ListeningPortAsync("  admin (/metrics, /healthz) listening on ");
        await using var idle = await RawHttpClient.ConnectAsync(port);
        await idle.SendAsync("GET /?s=2 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        Assert.Equal("ab", (await idle.ReadResponseAsync()).BodyText);

        await proxy.TerminateAsync();

        await idle.AssertClosedByPeerAsync();
        Assert.Equal(0, await proxy.ExitCodeAsync());
        var lines = proxy.Lines;
        var draining = Index(lines, "Stopping: draining 1 client connections");
        var stopped = Index(lines, "Stopped ");
        Assert.True(draining < stopped, string.Join('\n', lines));
        Assert.DoesNotContain(lines, line => line.Contains("Shutdown timeout", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, line => line.Contains("Overriding", StringComparison.Ordinal));
        Assert.DoesNotContain($":{admin}", Assert.Single(lines, line => line.StartsWith("LLRP listening on ", StringComparison.Ordinal)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Sigterm_RequestInFlightPastShutdownTimeout_AbortLoggedAndExitZero()
    {
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var origin = ScriptedOrigin.Start(async connection =>
        {
            if (await connection.ReadRequestAsync() is not null)
            {
                await release.Task.WaitAsync(Deadline.Io);
            }
        });
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0", $"--downstream={origin.Url}", "--shutdownTimeoutMs=300"]);
        var port = await proxy.ListeningPortAsync("LLRP listening on ");
        await using var busy = await RawHttpClient.ConnectAsync(port);
        await busy.SendAsync("GET /held HTTP/1.1\r\nHost: client.test\r\n\r\n");
        await Deadline.UntilAsync(() => origin.Requests.Count == 1, "The held request reaching the origin");

        await proxy.TerminateAsync();

        await busy.AssertClosedByPeerAsync();
        Assert.Equal(0, await proxy.ExitCodeAsync());
        release.SetResult();
        var lines = proxy.Lines;
        var draining = Index(lines, "Stopping: draining 1 client connections");
        var aborting = Index(lines, "Shutdown timeout: aborting 1 client connections still open after shutdownTimeoutMs=300");
        var stopped = Index(lines, "Stopped ");
        Assert.True(draining < aborting && aborting < stopped, string.Join('\n', lines));
    }

    private static int Index(IReadOnlyList<string> lines, string text)
    {
        var index = lines.ToList().FindIndex(line => line.Contains(text, StringComparison.Ordinal));
        Assert.True(index >= 0, $"No line with '{text}' in:\n{string.Join('\n', lines)}");
        return index;
    }
}
