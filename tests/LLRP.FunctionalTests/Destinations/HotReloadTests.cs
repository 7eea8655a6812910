using LLRP.FunctionalTests.Infrastructure;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
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

    /// <summary>Completes when the proxy's configuration next reloads (its appsettings.json was read again).</summary>
    private static Task ConfigurationReloaded(HostedApp proxy)
    {
        var configuration = proxy.Services.GetRequiredService<IConfiguration>();
        var reloaded = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var registration = ChangeToken.OnChange(configuration.GetReloadToken, () => reloaded.TrySetResult());
        return reloaded.Task.ContinueWith(_ => registration.Dispose(), TaskScheduler.Default);
    }
}
