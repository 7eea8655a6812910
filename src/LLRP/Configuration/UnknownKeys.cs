using System.Reflection;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.CommandLine;
using Microsoft.Extensions.Configuration.Json;

namespace LLRP.Configuration;

/// <summary>
/// The keys given on the command line or in an appsettings file that nothing reads (a misspelling, most often), each with
/// the known key nearest to it. The environment is not searched: it holds every other program's variables too.
/// </summary>
public static class UnknownKeys
{
    /// <summary>Sections read as a whole, by LLRP or by the host, whose inner keys are not checked here.</summary>
    private static readonly string[] Sections =
        [ConfigurationKeys.DestinationsSection.Name, ConfigurationKeys.ReverseProxySection.Name, "Logging", "Kestrel", "AllowedHosts", "contentRoot", "environment", "applicationName", "hostBuilder"];

    private static readonly string[] Keys =
    [
        .. typeof(ConfigurationKeys).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(field => field.IsLiteral)
            .Select(field => (string)field.GetRawConstantValue()!),
    ];

    /// <summary>Each unknown key of <paramref name="configuration"/>'s command line and appsettings files, where it was given, and the known key nearest to it.</summary>
    public static IEnumerable<(string Key, string Source, string Nearest)> Find(IConfigurationRoot configuration)
    {
        // The host adds the command line twice, to its own configuration and to the application's.
        var reported = new HashSet<(string, string)>();
        foreach (var provider in configuration.Providers)
        {
            var source = provider switch
            {
                CommandLineConfigurationProvider => "command line",
                JsonConfigurationProvider json => json.Source.Path,
                _ => null,
            };
            if (source is null)
            {
                continue;
            }

            foreach (var key in Leaves(provider, null).Where(key => IsUnknown(key) && reported.Add((key.ToLowerInvariant(), source))))
            {
                yield return (key, source, Nearest(key));
            }
        }
    }

    /// <summary>Every key that holds a value under <paramref name="parent"/>, dotted as LLRP names its keys.</summary>
    private static IEnumerable<string> Leaves(IConfigurationProvider provider, string? parent)
    {
        foreach (var child in provider.GetChildKeys([], parent).Distinct(StringComparer.OrdinalIgnoreCase))
        {
            var path = parent is null ? child : ConfigurationPath.Combine(parent, child);
            var inner = provider.GetChildKeys([], path).Any();
            if (!inner || Sections.Contains(child, StringComparer.OrdinalIgnoreCase) && parent is null)
            {
                yield return path.Replace(ConfigurationPath.KeyDelimiter, ".");
            }
            else
            {
                foreach (var leaf in Leaves(provider, path))
                {
                    yield return leaf;
                }
            }
        }
    }

    private static bool IsUnknown(string key)
        => !Keys.Contains(key, StringComparer.OrdinalIgnoreCase) && !Sections.Contains(key, StringComparer.OrdinalIgnoreCase);

    private static string Nearest(string key)
        => Keys.MinBy(known => EditDistance.Between(key.ToLowerInvariant(), known.ToLowerInvariant()))!;
}
