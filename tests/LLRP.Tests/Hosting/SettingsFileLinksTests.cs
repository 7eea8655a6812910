using LLRP.Hosting;

namespace LLRP.Tests.Hosting;

public sealed class SettingsFileLinksTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("llrp-settings-links-").FullName;

    [Fact]
    public void PlainFile_ItsOwnNameOnly()
    {
        var file = Path.Combine(_root, "appsettings.json");
        File.WriteAllText(file, "{}");

        Assert.Equal([(_root, "appsettings.json")], SettingsFileLinks.NamesOf(file));
    }

    [Fact]
    public void MissingFile_ItsOwnName()
        => Assert.Equal([(_root, "appsettings.json")], SettingsFileLinks.NamesOf(Path.Combine(_root, "appsettings.json")));

    /// <summary>A ConfigMap volume: the file, the <c>..data</c> link beside it, and the file in the version's directory.</summary>
    [Fact]
    public void ConfigMapVolume_FileDataLinkAndVersionFile()
    {
        var version = Directory.CreateDirectory(Path.Combine(_root, "..2026_11_29_01")).FullName;
        File.WriteAllText(Path.Combine(version, "appsettings.json"), "{}");
        Directory.CreateSymbolicLink(Path.Combine(_root, "..data"), "..2026_11_29_01");
        var file = Path.Combine(_root, "appsettings.json");
        File.CreateSymbolicLink(file, "..data/appsettings.json");

        Assert.Equal([(_root, "appsettings.json"), (_root, "..data"), (version, "appsettings.json")], SettingsFileLinks.NamesOf(file));
    }

    [Fact]
    public void LinkToAbsolutePath_BothDirectories()
    {
        var elsewhere = Directory.CreateDirectory(Path.Combine(_root, "elsewhere")).FullName;
        var target = Path.Combine(elsewhere, "settings.json");
        File.WriteAllText(target, "{}");
        var file = Path.Combine(_root, "appsettings.json");
        File.CreateSymbolicLink(file, target);

        Assert.Equal([(_root, "appsettings.json"), (elsewhere, "settings.json")], SettingsFileLinks.NamesOf(file));
    }

    /// <summary>Links that point at each other end after the kernel's bound of 40 links, as a path's resolution does.</summary>
    [Fact]
    public void LinkCycle_Bounded()
    {
        var file = Path.Combine(_root, "appsettings.json");
        File.CreateSymbolicLink(file, "other.json");
        File.CreateSymbolicLink(Path.Combine(_root, "other.json"), "appsettings.json");

        var names = SettingsFileLinks.NamesOf(file).ToList();

        Assert.Equal(41, names.Count);
        Assert.Equal([(_root, "appsettings.json"), (_root, "other.json")], names.Distinct());
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);
}
