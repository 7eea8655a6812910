using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Startup;

/// <summary>An appsettings.json rewritten with broken JSON: the reload says which file, line and why, and the routes stay.</summary>
public sealed class ReloadErrorTests
{
    [Fact]
    public async Task BrokenJsonOnReload_LoggedWithFileAndLine_RoutesKept_NextValidFileTaken()
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        using var root = ContentRoot.WithDestinations(first.Url);
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0"]);
        var port = await proxy.ListeningPortAsync("LLRP listening on ");
        Assert.Equal("A", await BodyAsync(port));

        root.WriteSettings("{\n  \"destinations\": [\n    { \"address\": }\n  ]\n}\n");
        var line = await proxy.LineAsync("appsettings.json': line 3");
        Assert.Contains("routes and clusters were ignored", line, StringComparison.Ordinal);
        Assert.Equal("A", await BodyAsync(port));

        root.WriteDestinations(second.Url);
        await Deadline.UntilAsync(async () => await BodyAsync(port) == "B", "The next valid file taken");
    }

    private static async Task<string> BodyAsync(int port)
    {
        await using var client = await RawHttpClient.ConnectAsync(port);
        await client.SendAsync("GET /x HTTP/1.1\r\nHost: client.test\r\nConnection: close\r\n\r\n");
        return (await client.ReadResponseAsync()).BodyText;
    }
}
