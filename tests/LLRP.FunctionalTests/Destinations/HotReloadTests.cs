using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Primitives;

namespace LLRP.FunctionalTests.Destinations;

/// <summary>
/// The <c>destinations</c> section of appsettings.json, in the proxy's content root, is reloaded when the file changes:
/// new requests go to the new destinations, open client connections stay open, and an invalid file changes nothing.
/// </summary>
public sealed class HotReloadTests
{
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task Rewritten_NewRequestsGoToNewDestinationIdleConnectionKept(string mode)
    {
        await using var before = DestinationOrigin.Start("A");
        await using var after = DestinationOrigin.Start("B");
        using var root = ContentRoot.WithDestinations(before.Url);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        await using var idle = await proxy.ConnectAsync();
        Assert.Equal("A", (await idle.GetAsync("/idle-before")).BodyText);

        root.WriteDestinations(after.Url);
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/poll")).BodyText == "B", "New requests going to the new destination");
        var servedBefore = before.Served;
        for (var i = 0; i < 4; i++)
        {
            Assert.Equal("B", (await proxy.GetOnNewConnectionAsync($"/x?{i}")).BodyText);
        }

        var idleAgain = await idle.GetAsync("/idle-after");
        Assert.True(idleAgain.StatusCode == 200, $"The connection open during the reload was not served:\n{idleAgain}");
        Assert.Equal(servedBefore + (idleAgain.BodyText == "A" ? 1 : 0), before.Served);
    }

    /// <summary>
    /// A file whose destination is not a URI is read and ignored: requests keep going to the previous destination. A
    /// valid file written next is taken, which shows the invalid one was seen, not missed.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task InvalidFile_Ignored(string mode)
    {
        await using var before = DestinationOrigin.Start("A");
        await using var after = DestinationOrigin.Start("B");
        using var root = ContentRoot.WithDestinations(before.Url);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode);
        Assert.Equal("A", (await proxy.GetOnNewConnectionAsync("/before")).BodyText);

        var reloaded = ConfigurationReloaded(proxy);
        root.WriteDestinations("not a uri");
        await reloaded.WaitAsync(Deadline.Io);
        for (var i = 0; i < 4; i++)
        {
            var response = await proxy.GetOnNewConnectionAsync($"/x?{i}");
            Assert.True(response.StatusCode == 200 && response.BodyText == "A", $"Expected the previous destination's answer, got:\n{response}");
        }

        root.WriteDestinations(after.Url);
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/poll")).BodyText == "B", "A valid file taken after the invalid one");
    }

    /// <summary>
    /// The section's weights count (<c>weight</c> 3 and 1 give 3:1 under weightedRoundRobin), and a rewrite that only
    /// changes them turns the pattern round (1:3) within the deadline.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Reweighted_WeightedRoundRobinFollowsNewWeights(string mode)
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        using var root = ContentRoot.WithDestinations();
        root.WriteWeightedDestinations((first.Url, 3), (second.Url, 1));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode, "balancing=weightedRoundRobin");
        await using var client = await proxy.ConnectAsync();

        Assert.Equal(6, (await ServeAsync(client, 8)).Count(name => name == 'A'));

        root.WriteWeightedDestinations((first.Url, 1), (second.Url, 3));
        await Deadline.UntilAsync(async () => (await ServeAsync(client, 8)).Count(name => name == 'A') == 2, "Eight requests going 2:6 after the weights turned round");
    }

    /// <summary>
    /// A destination the rewrite keeps keeps its state: ejected before (one failure, 30 s reactivation), it stays out
    /// after a reload that adds another destination, and is not tried again.
    /// </summary>
    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Reloaded_KeptDestinationKeepsItsEjection(string mode)
    {
        await using var healthy = DestinationOrigin.Start("H");
        await using var added = DestinationOrigin.Start("N");
        var dead = $"http://127.0.0.1:{LoopbackPort.Closed()}";
        using var root = ContentRoot.WithDestinations(healthy.Url, dead);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(
            root, mode, "balancing=roundRobin", "health.passive.consecutiveFailures=1", "health.passive.reactivationMs=30000");
        using var metrics = new ProxyMeterRecorder(proxy);
        await using var client = await proxy.ConnectAsync();
        for (var i = 0; i < 4; i++)
        {
            Assert.Equal(200, (await client.GetAsync($"/before?{i}")).StatusCode);
        }

        Assert.Equal(1, metrics.Sum("llrp.destination.ejections", "destination", dead + "/"));

        root.WriteDestinations(healthy.Url, dead, added.Url);
        await Deadline.UntilAsync(async () => (await client.GetAsync("/poll")).BodyText == "N", "The added destination serving");
        for (var i = 0; i < 6; i++)
        {
            Assert.Equal(200, (await client.GetAsync($"/after?{i}")).StatusCode);
        }

        Assert.True(
            metrics.Sum("llrp.destination.failures", "destination", dead + "/") == 1,
            $"The ejected destination was tried again after the reload: {metrics.Describe("llrp.destination.failures")}");
    }

    /// <summary>Sends <paramref name="count"/> GETs one after the other on <paramref name="client"/>: the names of the destinations that served them.</summary>
    private static async Task<string> ServeAsync(RawHttpClient client, int count)
    {
        var names = "";
        for (var i = 0; i < count; i++)
        {
            var response = await client.GetAsync($"/x?{i}");
            Assert.Equal(200, response.StatusCode);
            names += response.BodyText;
        }

        return names;
    }

    /// <summary>
    /// A file replaced whole (written beside it, then renamed over it, as editors and deployment tools save) is read again,
    /// as is appsettings.{environment}.json, whose keys take precedence over appsettings.json's.
    /// </summary>
    [Fact]
    public async Task ReplacedByRename_AndEnvironmentFile_Reloaded()
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        await using var third = DestinationOrigin.Start("C");
        using var root = ContentRoot.WithDestinations(first.Url);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPooled);
        Assert.Equal("A", (await proxy.GetOnNewConnectionAsync("/before")).BodyText);

        var written = Path.Combine(root.Path, "appsettings.json.new");
        File.WriteAllText(written, $$"""{"destinations":[{"address":"{{second.Url}}"}]}""");
        File.Move(written, root.SettingsFile, overwrite: true);
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/renamed")).BodyText == "B", "The file renamed over appsettings.json taken");

        var environment = proxy.Services.GetRequiredService<IHostEnvironment>().EnvironmentName;
        File.WriteAllText(Path.Combine(root.Path, $"appsettings.{environment}.json"), $$"""{"destinations":[{"address":"{{third.Url}}"}]}""");
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/environment")).BodyText == "C", $"appsettings.{environment}.json taken");
    }

    /// <summary>
    /// A Kubernetes ConfigMap volume: appsettings.json is a link to <c>..data/appsettings.json</c>, <c>..data</c> a link to
    /// a directory of the current version, and an update writes the new version's directory beside it, links
    /// <c>..data_tmp</c> to it, renames that link over <c>..data</c> and deletes the old directory. No event names
    /// appsettings.json; each update is taken, the second one too (the watch follows the links again after the first).
    /// </summary>
    [Fact]
    public async Task ConfigMapVolume_VersionSwappedTwice_EachTaken()
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        await using var third = DestinationOrigin.Start("C");
        using var root = ContentRoot.Empty();
        PublishConfigMapVersion(root, "..2026_11_29_01", first.Url);
        File.CreateSymbolicLink(root.SettingsFile, Path.Combine("..data", "appsettings.json"));
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPooled);
        Assert.Equal("A", (await proxy.GetOnNewConnectionAsync("/before")).BodyText);

        PublishConfigMapVersion(root, "..2026_11_29_02", second.Url);
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/second")).BodyText == "B", "The second version taken");

        PublishConfigMapVersion(root, "..2026_11_29_03", third.Url);
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/third")).BodyText == "C", "The third version taken");
    }

    /// <summary>appsettings.json a link to a file in another directory, which is edited in place: the edit is taken.</summary>
    [Fact]
    public async Task LinkToFileElsewhere_EditedInPlace_Taken()
    {
        await using var first = DestinationOrigin.Start("A");
        await using var second = DestinationOrigin.Start("B");
        using var root = ContentRoot.Empty();
        using var elsewhere = ContentRoot.WithDestinations(first.Url);
        File.CreateSymbolicLink(root.SettingsFile, elsewhere.SettingsFile);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, LlrpModes.RawPooled);
        Assert.Equal("A", (await proxy.GetOnNewConnectionAsync("/before")).BodyText);

        elsewhere.WriteDestinations(second.Url);
        await Deadline.UntilAsync(async () => (await proxy.GetOnNewConnectionAsync("/edited")).BodyText == "B", "The edit of the linked file taken");
    }

    /// <summary>Writes <paramref name="version"/>'s directory with an appsettings.json for <paramref name="address"/> and swaps <c>..data</c> to it as the kubelet does, deleting the version it pointed to.</summary>
    private static void PublishConfigMapVersion(ContentRoot root, string version, string address)
    {
        var directory = Directory.CreateDirectory(Path.Combine(root.Path, version));
        File.WriteAllText(Path.Combine(directory.FullName, "appsettings.json"), $$"""{"destinations":[{"address":"{{address}}"}]}""");
        var data = Path.Combine(root.Path, "..data");
        var previous = File.Exists(data) || Directory.Exists(data) ? new FileInfo(data).LinkTarget : null;
        var staged = Path.Combine(root.Path, "..data_tmp");
        Directory.CreateSymbolicLink(staged, version);
        AtomicRename.Replace(staged, data);
        if (previous is not null)
        {
            Directory.Delete(Path.Combine(root.Path, previous), recursive: true);
        }
    }

    /// <summary>Completes when the proxy's configuration next reloads (its appsettings.json was read again).</summary>
    private static Task ConfigurationReloaded(HostedApp proxy)
    {
        var configuration = proxy.Services.GetRequiredService<IConfiguration>();
        var reloaded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var registration = ChangeToken.OnChange(configuration.GetReloadToken, () => reloaded.TrySetResult());
        return reloaded.Task.ContinueWith(_ => registration.Dispose(), TaskScheduler.Default);
    }
}
