using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Startup;

/// <summary>
/// Hot reload watches the directory of the settings files only: a working directory with a deep tree below it (a home
/// directory, a checkout with its build output) costs one watch, not one per directory below it, so writes below it
/// never wake the proxy and it starts as fast as anywhere else. Counted in /proc (Linux).
/// </summary>
public sealed class SettingsWatchTests
{
    [Fact]
    public async Task ContentRootWithSubdirectories_OneInotifyWatch()
    {
        using var root = RootWithTree(ContentRoot.WithDestinations("http://127.0.0.1:1"));
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0"]);
        await proxy.ListeningPortAsync("LLRP listening on ");
        Assert.Equal(1, InotifyWatches(proxy.Id));
    }

    /// <summary>The bundled origin, embedded when no destination is configured, reads its settings once and watches nothing.</summary>
    [Fact]
    public async Task EmbeddedOrigin_AddsNoWatch()
    {
        using var root = RootWithTree(ContentRoot.Empty());
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0", $"--origin.urls=http://127.0.0.1:{LoopbackPort.Closed()}"]);
        var port = await proxy.ListeningPortAsync("LLRP listening on ");
        await using var client = await RawHttpClient.ConnectAsync(port);
        await client.SendAsync("GET /?s=2 HTTP/1.1\r\nHost: client.test\r\n\r\n");
        Assert.Equal("ab", (await client.ReadResponseAsync()).BodyText);
        Assert.Equal(1, InotifyWatches(proxy.Id));
    }

    /// <summary><paramref name="root"/> with 20 directory trees below it, as logs or a build's output make.</summary>
    private static ContentRoot RootWithTree(ContentRoot root)
    {
        for (var i = 0; i < 20; i++)
        {
            Directory.CreateDirectory(Path.Combine(root.Path, $"logs{i}", "a", "b"));
        }

        return root;
    }

    /// <summary>The inotify watches held by process <paramref name="pid"/>: the <c>inotify wd:</c> lines of its inotify descriptors.</summary>
    private static int InotifyWatches(int pid)
        => Directory.EnumerateFileSystemEntries($"/proc/{pid}/fd")
            .Where(fd => new FileInfo(fd).LinkTarget == "anon_inode:inotify")
            .Sum(fd => File.ReadLines($"/proc/{pid}/fdinfo/{Path.GetFileName(fd)}").Count(line => line.StartsWith("inotify wd:", StringComparison.Ordinal)));
}
