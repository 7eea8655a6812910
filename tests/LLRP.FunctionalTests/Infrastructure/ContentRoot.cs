using System.Text.Json;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A temporary directory the proxy takes as its content root, with the appsettings.json a test writes and rewrites.</summary>
public sealed class ContentRoot : IDisposable
{
    private ContentRoot(string path) => Path = path;

    public string Path { get; }

    public string SettingsFile => System.IO.Path.Combine(Path, "appsettings.json");

    /// <summary>Creates the directory with no appsettings.json.</summary>
    public static ContentRoot Empty() => new(Directory.CreateTempSubdirectory("llrp-content-root-").FullName);

    /// <summary>Creates the directory with an appsettings.json whose <c>destinations</c> section lists <paramref name="addresses"/>.</summary>
    public static ContentRoot WithDestinations(params string[] addresses)
    {
        var root = Empty();
        root.WriteDestinations(addresses);
        return root;
    }

    /// <summary>Rewrites appsettings.json: a <c>destinations</c> section of <paramref name="addresses"/>, each of weight 1 (none given).</summary>
    public void WriteDestinations(params string[] addresses) =>
        File.WriteAllText(SettingsFile, JsonSerializer.Serialize(new
        {
            destinations = addresses.Select(address => new { address }).ToArray(),
        }));

    /// <summary>Rewrites appsettings.json: a <c>destinations</c> section of <paramref name="destinations"/>, each with its weight.</summary>
    public void WriteWeightedDestinations(params (string Address, int Weight)[] destinations) =>
        File.WriteAllText(SettingsFile, JsonSerializer.Serialize(new
        {
            destinations = destinations.Select(destination => new { address = destination.Address, weight = destination.Weight }).ToArray(),
        }));

    /// <summary>Creates the directory with <paramref name="json"/> as its appsettings.json.</summary>
    public static ContentRoot WithSettings(string json)
    {
        var root = new ContentRoot(Directory.CreateTempSubdirectory("llrp-content-root-").FullName);
        root.WriteSettings(json);
        return root;
    }

    /// <summary>Writes <paramref name="text"/> as appsettings.json, as is (it need not be valid JSON).</summary>
    public void WriteSettings(string text) => File.WriteAllText(SettingsFile, text);

    public void Dispose() => Directory.Delete(Path, recursive: true);
}
