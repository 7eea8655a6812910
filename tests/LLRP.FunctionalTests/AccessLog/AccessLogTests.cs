using System.Text.Json;
using System.Text.RegularExpressions;
using LLRP.Diagnostics.AccessLogging;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.AccessLog;

/// <summary>The access log: one line per answered request, forwarded or answered by the proxy, in every mode.</summary>
public sealed class AccessLogTests
{
    private const string Get = "GET {0} HTTP/1.1\r\nHost: client.test\r\n\r\n";

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Combined_ForwardedRequest_NginxFieldsThenRouteDestinationAndTimes(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, log.Setting);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /a?b=1 HTTP/1.1\r\nHost: client.test\r\nReferer: http://from.test/\r\nUser-Agent: test \"agent\"/1\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(200, response.StatusCode);
        var line = Assert.Single(await log.WaitForLinesAsync(1));
        Assert.Matches(Combined("GET /a?b=1 HTTP/1.1", 200, 2, "http://from.test/", @"test \x22agent\x22/1", "default", $"{origin.Url}/", "200"), line);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Pipelined_OneLinePerRequestInOrder(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, log.Setting);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(string.Format(Get, "/1") + string.Format(Get, "/2") + string.Format(Get, "/3"));
        for (var i = 0; i < 3; i++)
        {
            await client.ReadResponseAsync();
        }

        var lines = await log.WaitForLinesAsync(3);
        for (var i = 0; i < 3; i++)
        {
            Assert.Matches(Combined($"GET /{i + 1} HTTP/1.1", 200, 2, "-", "-", "default", $"{origin.Url}/", "200"), lines[i]);
        }
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Unrouted_404LineWithoutRouteBetweenForwardedOnes(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        using var root = ContentRoot.WithSettings($$"""
            { "ReverseProxy": {
                "Routes": { "api": { "ClusterId": "c", "Match": { "Path": "/api/{**rest}" } } },
                "Clusters": { "c": { "Destinations": { "d1": { "Address": "{{origin.Url}}" } } } } } }
            """);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode, log.Setting);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(string.Format(Get, "/api/1") + string.Format(Get, "/other") + string.Format(Get, "/api/2"));
        var statuses = new List<int>();
        for (var i = 0; i < 3; i++)
        {
            statuses.Add((await client.ReadResponseAsync()).StatusCode);
        }

        Assert.Equal([200, 404, 200], statuses);
        var lines = await log.WaitForLinesAsync(3);
        Assert.Matches(Combined("GET /api/1 HTTP/1.1", 200, 2, "-", "-", "api", "c/d1", "200"), lines[0]);
        Assert.Matches(Combined("GET /other HTTP/1.1", 404, null, "-", "-", "-", "-", "-"), lines[1]);
        Assert.Matches(Combined("GET /api/2 HTTP/1.1", 200, 2, "-", "-", "api", "c/d1", "200"), lines[2]);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task ConnectionRefused_502LineNamesDestinationWithoutUpstreamStatus(string mode)
    {
        using var log = new AccessLogFile();
        var destination = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        await using var proxy = await TestHosts.StartProxyAsync(destination, mode, log.Setting);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync(string.Format(Get, "/x"));
        var response = await client.ReadResponseAsync();

        Assert.Equal(502, response.StatusCode);
        var line = Assert.Single(await log.WaitForLinesAsync(1));
        Assert.Matches(Combined("GET /x HTTP/1.1", 502, response.Body.Length, "-", "-", "default", $"{destination}/", "-"), line);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Malformed_400LineWithoutRequest(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, log.Setting);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET / HTTP/1.1\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(400, response.StatusCode);
        var line = Assert.Single(await log.WaitForLinesAsync(1));
        Assert.Matches(Combined("-", 400, response.Body.Length, "-", "-", "-", "-", "-"), line);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Json_OneObjectPerLineWithTheSameFields(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, log.Setting, "accessLog.format=json");
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("GET /j HTTP/1.1\r\nHost: client.test\r\nUser-Agent: t/1\r\n\r\n" + string.Format(Get, "/k"));
        await client.ReadResponseAsync();
        await client.ReadResponseAsync();

        var lines = await log.WaitForLinesAsync(2);
        using var first = JsonDocument.Parse(lines[0]);
        var root = first.RootElement;
        Assert.Equal("127.0.0.1", root.GetProperty("remote_addr").GetString());
        Assert.True(root.GetProperty("time").TryGetDateTime(out _));
        Assert.Equal("GET /j HTTP/1.1", root.GetProperty("request").GetString());
        Assert.Equal(200, root.GetProperty("status").GetInt32());
        Assert.Equal(2, root.GetProperty("body_bytes_sent").GetInt64());
        Assert.Equal(JsonValueKind.Null, root.GetProperty("http_referer").ValueKind);
        Assert.Equal("t/1", root.GetProperty("http_user_agent").GetString());
        Assert.Equal("default", root.GetProperty("route").GetString());
        Assert.Equal($"{origin.Url}/", root.GetProperty("destination").GetString());
        Assert.Equal(200, root.GetProperty("upstream_status").GetInt32());
        Assert.True(root.GetProperty("request_time").GetDouble() >= 0);
        Assert.True(root.GetProperty("upstream_time").GetDouble() >= 0);
        using var second = JsonDocument.Parse(lines[1]);
        Assert.Equal("GET /k HTTP/1.1", second.RootElement.GetProperty("request").GetString());
    }

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Reopen_AfterRename_NextLinesGoToANewFile(string mode)
    {
        using var log = new AccessLogFile();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, log.Setting);
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync(string.Format(Get, "/before"));
        await client.ReadResponseAsync();
        await log.WaitForLinesAsync(1);

        var rotated = log.Path + ".1";
        File.Move(log.Path, rotated);
        proxy.Services.GetRequiredService<AccessLogWriter>().Reopen();
        await client.SendAsync(string.Format(Get, "/after"));
        await client.ReadResponseAsync();

        Assert.Contains("/after", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
        Assert.Contains("/before", Assert.Single(log.Lines(rotated)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task SigHup_ReopensTheFile()
    {
        using var log = new AccessLogFile();
        using var root = ContentRoot.Empty();
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0", $"--downstream={origin.Url}", $"--accessLog={log.Path}"]);
        var port = await proxy.ListeningPortAsync("LLRP listening on ");
        await using var client = await RawHttpClient.ConnectAsync(port);
        await client.SendAsync(string.Format(Get, "/before"));
        await client.ReadResponseAsync();
        await log.WaitForLinesAsync(1);

        var rotated = log.Path + ".1";
        File.Move(log.Path, rotated);
        await proxy.HangUpAsync();
        await Deadline.UntilAsync(() => File.Exists(log.Path), "the access log reopened");
        await client.SendAsync(string.Format(Get, "/after"));
        await client.ReadResponseAsync();

        Assert.Contains("/after", Assert.Single(await log.WaitForLinesAsync(1)), StringComparison.Ordinal);
        Assert.Contains("/before", Assert.Single(log.Lines(rotated)), StringComparison.Ordinal);
        await proxy.TerminateAsync();
        Assert.Equal(0, await proxy.ExitCodeAsync());
    }

    /// <summary>The writer is the same in every mode; raw mode answers the thousands of requests that fill the sink fastest.</summary>
    [Fact]
    public async Task SlowSink_LinesDroppedAndCountedNeverHeldBack()
    {
        const int Requests = 3000;
        const int PerSend = 100;
        using var log = new AccessLogFile();
        using (var mkfifo = System.Diagnostics.Process.Start("mkfifo", [log.Path]))
        {
            await mkfifo.WaitForExitAsync();
        }

        // Opening a FIFO blocks until both ends are open; nothing is read from it until the proxy is stopping.
        var readEnd = Task.Run(() => new FileStream(log.Path, FileMode.Open, FileAccess.Read));
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, LlrpModes.RawPooled, log.Setting, "accessLog.bufferSize=4096");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using (var client = await proxy.ConnectAsync())
        {
            for (var sent = 0; sent < Requests; sent += PerSend)
            {
                await client.SendAsync(string.Concat(Enumerable.Repeat(string.Format(Get, "/"), PerSend)));
                for (var i = 0; i < PerSend; i++)
                {
                    Assert.Equal(200, (await client.ReadResponseAsync()).StatusCode);
                }
            }
        }

        await using var reader = await readEnd;
        var written = Task.Run(() => new StreamReader(reader).ReadToEnd().Count(c => c == '\n'));
        using (var stopping = new CancellationTokenSource(Deadline.Io))
        {
            // Stopping writes out what is queued, then closes the FIFO: its reader sees the end.
            await proxy.StopAsync(stopping.Token);
        }

        var dropped = metrics.Sum("llrp.access_log.dropped");
        Assert.True(dropped > 0, "a sink nobody reads drops lines");
        Assert.Equal(Requests, await written.WaitAsync(Deadline.Io) + dropped);
    }

    /// <summary>A combined line's pattern; a null <paramref name="bytes"/> is any count.</summary>
    internal static Regex Combined(string request, int status, long? bytes, string referer, string agent, string route, string destination, string upstreamStatus)
    {
        var upstreamTime = upstreamStatus == "-" ? "-" : @"\d+\.\d{3}";
        return new Regex(
            $@"^127\.0\.0\.1 - - \[\d{{2}}/[A-Z][a-z]{{2}}/\d{{4}}:\d{{2}}:\d{{2}}:\d{{2}} \+0000\] ""{Regex.Escape(request)}"" {status} {(bytes is { } count ? count : @"\d+")} " +
            $@"""{Regex.Escape(referer)}"" ""{Regex.Escape(agent)}"" route={Regex.Escape(route)} destination={Regex.Escape(destination)} upstream_status={upstreamStatus} " +
            $@"request_time=\d+\.\d{{3}} upstream_time={upstreamTime}$");
    }
}
