using Microsoft.Extensions.Configuration;
using ReverseProxyKeys = LLRP.Configuration.ConfigurationKeys.ReverseProxySection;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// YARP's free-form <c>Metadata</c> of a route, a cluster or a destination: keys that start with <c>Llrp.</c> are LLRP's
/// and must be known where they are given; every other key is the user's (YARP hands them to code) and is ignored.
/// </summary>
internal static class MetadataSection
{
    /// <summary>Throws for an <c>Llrp.</c> key of <paramref name="metadata"/> that is not in <paramref name="known"/>.</summary>
    public static IConfigurationSection Check(IConfigurationSection metadata, params string[] known)
    {
        foreach (var entry in SectionValue.Children(metadata, "a section of name/value pairs"))
        {
            if (entry.Key.StartsWith(ReverseProxyKeys.MetadataPrefix, StringComparison.OrdinalIgnoreCase) && !known.Contains(entry.Key, StringComparer.OrdinalIgnoreCase))
            {
                throw known.Length == 0
                    ? SectionValue.Error(entry, $"no {ReverseProxyKeys.MetadataPrefix} key here: LLRP defines none (keys without the prefix are yours and ignored)")
                    : SectionKeys.Unknown(entry, known, $"{ReverseProxyKeys.MetadataPrefix} keys");
            }
        }

        return metadata;
    }
}
