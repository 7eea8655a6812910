using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Startup;

/// <summary>An appsettings.json that is not valid JSON stops the proxy, and the bundled origin, with exit code 2 and one line naming the file, where it breaks and why.</summary>
public sealed class SettingsFileErrorTests
{
    private const string BrokenJson = "{\n  \"urls\": \"http://127.0.0.1:0\",\n  oops\n}\n";

    [Fact]
    public async Task Proxy_BrokenAppSettings_ExitsTwoWithOneLineNamingFileLineAndReason()
    {
        using var root = ContentRoot.Empty();
        root.WriteSettings(BrokenJson);
        await using var proxy = AppProcess.StartProxy(root.Path, []);

        Assert.Equal(2, await proxy.ExitCodeAsync());
        Assert.Equal($"Failed to load configuration from file '{root.SettingsFile}': line 3, position 3: 'o' is an invalid start of a property name. Expected a '\"'.", Assert.Single(proxy.Lines));
    }

    [Fact]
    public async Task Origin_BrokenAppSettings_ExitsTwoWithOneLineNamingFileLineAndReason()
    {
        using var root = ContentRoot.Empty();
        root.WriteSettings(BrokenJson);
        await using var origin = AppProcess.StartOrigin(root.Path, []);

        Assert.Equal(2, await origin.ExitCodeAsync());
        Assert.Equal($"Failed to load configuration from file '{root.SettingsFile}': line 3, position 3: 'o' is an invalid start of a property name. Expected a '\"'.", Assert.Single(origin.Lines));
    }

    [Fact]
    public async Task Origin_AddressInUse_ExitsTwoWithOneLine()
    {
        using var root = ContentRoot.Empty();
        await using var first = AppProcess.StartOrigin(root.Path, ["--urls=http://127.0.0.1:0"]);
        var port = await first.ListeningPortAsync("listening on ");
        await using var second = AppProcess.StartOrigin(root.Path, [$"--urls=http://127.0.0.1:{port}"]);

        Assert.Equal(2, await second.ExitCodeAsync());
        Assert.StartsWith($"Failed to bind to address http://127.0.0.1:{port}: address already in use.", Assert.Single(second.Lines), StringComparison.Ordinal);
    }
}
