using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// Scalar values of the <c>ReverseProxy</c> section, parsed as .NET's configuration binder parses YARP's options
/// (booleans <c>true</c>/<c>false</c>, integers, enum names without regard to case, TimeSpans as
/// <see cref="TimeSpan.Parse(string, IFormatProvider)"/> with the invariant culture); null when the key is absent or null.
/// A bad value throws <see cref="ProxyConfigurationException"/> naming the key's full path.
/// </summary>
internal static class SectionValue
{
    /// <summary>The value of a key that must be a scalar, not a section.</summary>
    public static string? String(IConfigurationSection section)
    {
        if (section.GetChildren().Any())
        {
            throw Error(section, "a single value, not a section or an array");
        }

        return section.Value;
    }

    /// <summary>A value that must be given and not empty.</summary>
    public static string Required(IConfigurationSection section, string allowed)
        => String(section) is { Length: > 0 } value && !string.IsNullOrWhiteSpace(value)
            ? value
            : throw Error(section, allowed);

    public static bool? Bool(IConfigurationSection section)
    {
        var value = String(section);
        return value is null ? null
            : bool.TryParse(value.Trim(), out var result) ? result
            : throw Error(section, "true or false");
    }

    public static int? Int(IConfigurationSection section, int minimum, int maximum = int.MaxValue)
    {
        var value = String(section);
        return value is null ? null
            : int.TryParse(value.Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var result) && result >= minimum && result <= maximum ? result
            : throw Error(section, maximum == int.MaxValue ? $"an integer >= {minimum}" : $"an integer from {minimum} to {maximum}");
    }

    /// <summary>A positive TimeSpan in YARP's format, such as <c>00:00:10</c> (a bare number is days, as TimeSpan.Parse reads it).</summary>
    public static TimeSpan? Duration(IConfigurationSection section)
    {
        var value = String(section);
        return value is null ? null
            : TimeSpan.TryParse(value.Trim(), CultureInfo.InvariantCulture, out var result) && result > TimeSpan.Zero ? result
            : throw Error(section, "a positive TimeSpan such as 00:00:10 (hh:mm:ss, or d.hh:mm:ss)");
    }

    /// <summary>One of <paramref name="names"/>, compared without regard to case; the index of the name given.</summary>
    public static int? OneOf(IConfigurationSection section, params string[] names)
    {
        var value = String(section);
        if (value is null)
        {
            return null;
        }

        var index = Array.FindIndex(names, name => name.Equals(value.Trim(), StringComparison.OrdinalIgnoreCase));
        return index >= 0 ? index : throw Error(section, string.Join(", ", names));
    }

    /// <summary>An enum value by name, compared without regard to case (numbers are refused).</summary>
    public static T? Enum<T>(IConfigurationSection section)
        where T : struct, Enum
        => OneOf(section, System.Enum.GetNames<T>()) is { } index ? System.Enum.GetValues<T>()[index] : null;

    /// <summary>An array of non-empty scalars (YARP's string lists); empty when absent.</summary>
    public static IReadOnlyList<string> List(IConfigurationSection section, string allowed)
    {
        if (section.Value is { Length: > 0 } scalar)
        {
            throw Error(section, $"an array of {allowed}");
        }

        var values = new List<string>();
        foreach (var item in section.GetChildren())
        {
            values.Add(!int.TryParse(item.Key, NumberStyles.None, CultureInfo.InvariantCulture, out _)
                ? throw Error(item, $"an array of {allowed}")
                : Required(item, allowed));
        }

        return values;
    }

    /// <summary>The children of a section that must be one (an object or an array), not a scalar.</summary>
    public static List<IConfigurationSection> Children(IConfigurationSection section, string allowed)
        => section.Value is { Length: > 0 } scalar
            ? throw Error(section, allowed)
            : [.. section.GetChildren()];

    /// <summary>The error for <paramref name="section"/>: its full path, its value on one line ("(a section)" for a section), what is allowed.</summary>
    public static ProxyConfigurationException Error(IConfigurationSection section, string allowed)
        => new(section.Path, section.Value is { } value ? Shown(value) : section.GetChildren().Any() ? "(a section)" : null, allowed);

    /// <summary>A value as an error message shows it: on one line, control characters escaped.</summary>

    public static string Shown(string value)
        => value.Any(char.IsControl)
            ? string.Concat(value.Select(c => char.IsControl(c) ? $"\\u{(int)c:x4}" : c.ToString()))
            : value;
}
