using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// The keys a section of <c>ReverseProxy</c> may hold: every other key is refused, naming the nearest known key when one
/// is close; keys of YARP's schema that LLRP does not implement are refused with the reason.
/// </summary>
internal static class SectionKeys
{
    /// <summary>Throws for the first child of <paramref name="section"/> that is not in <paramref name="supported"/>.</summary>
    /// <param name="unsupported">YARP's keys that LLRP refuses, each with what to do instead.</param>
    public static void Check(IConfigurationSection section, string[] supported, IReadOnlyDictionary<string, string>? unsupported = null)
    {
        foreach (var child in section.GetChildren())
        {
            if (supported.Contains(child.Key, StringComparer.OrdinalIgnoreCase))
            {
                continue;
            }

            if (unsupported is not null && unsupported.TryGetValue(child.Key, out var reason))
            {
                throw SectionValue.Error(child, $"no {child.Key}: it is not supported by LLRP ({reason}); supported here: {string.Join(", ", supported)}");
            }

            throw Unknown(child, supported);
        }
    }

    /// <summary>An unknown key: the keys allowed, and the nearest one when the key looks like a misspelling of it.</summary>
    public static ProxyConfigurationException Unknown(IConfigurationSection child, IReadOnlyCollection<string> known, string what = "keys")
    {
        var nearest = Nearest(child.Key, known);
        var hint = nearest is null ? "" : $" (did you mean {nearest}?)";
        return SectionValue.Error(child, $"unknown key{hint}; known {what} here: {string.Join(", ", known)}");
    }

    /// <summary>
    /// The known key at the smallest edit distance from <paramref name="key"/>, when that distance is at most a third of
    /// its length (at least 1) or when one key starts with the other.
    /// </summary>
    public static string? Nearest(string key, IEnumerable<string> known)
    {
        var limit = Math.Max(1, key.Length / 3);
        string? nearest = null;
        var best = int.MaxValue;
        foreach (var candidate in known)
        {
            var distance = EditDistance.Between(key.ToUpperInvariant(), candidate.ToUpperInvariant());
            if (key.Length >= 4 && (candidate.StartsWith(key, StringComparison.OrdinalIgnoreCase) || key.StartsWith(candidate, StringComparison.OrdinalIgnoreCase)))
            {
                distance = Math.Min(distance, limit);
            }

            if (distance <= limit && distance < best)
            {
                (nearest, best) = (candidate, distance);
            }
        }

        return nearest;
    }
}
