using LLRP.Configuration.Routes;
using LLRP.Http1;
using System.Text;

namespace LLRP.Routing;

/// <summary>
/// A route's path template, the subset of ASP.NET Core's syntax LLRP supports: literal segments, <c>{name}</c> (one
/// non-empty segment) and a final <c>{**name}</c> or <c>{*name}</c> (the rest of the path, possibly empty), as
/// <see cref="RouteTemplateSyntax"/> checks it.
/// </summary>
internal sealed class RouteTemplate
{
    private RouteTemplate(string? text, TemplateSegment[] segments, bool hasCatchAll, string[] parameterNames)
    {
        Text = text;
        Segments = segments;
        HasCatchAll = hasCatchAll;
        ParameterNames = parameterNames;
        CatchAllIndex = hasCatchAll && parameterNames.Length > 0 ? parameterNames.Length - 1 : -1;
        PrecedenceDigits = [.. segments.Select(s => s.PrecedenceDigit), .. hasCatchAll ? [(byte)5] : Array.Empty<byte>()];
    }

    /// <summary>Every path, capturing nothing: a route without <c>Path</c>.</summary>
    public static RouteTemplate Any { get; } = new(null, [], true, []);

    /// <summary>The template as configured; null for <see cref="Any"/>.</summary>
    public string? Text { get; }

    /// <summary>The segments before the catch-all, if any.</summary>
    public TemplateSegment[] Segments { get; }

    public bool HasCatchAll { get; }

    /// <summary>The parameters' names, in template order; a capture's index is its name's index here.</summary>
    public string[] ParameterNames { get; }

    /// <summary>The catch-all parameter's index, or -1.</summary>
    public int CatchAllIndex { get; }

    /// <summary>Matches every path, including the asterisk-form: no segment before a catch-all.</summary>
    public bool MatchesAnyPath => Segments.Length == 0 && HasCatchAll;

    /// <summary>ASP.NET Core's inbound precedence, one digit per segment (literal 1, parameter 3, catch-all 5); lower ranks first.</summary>
    public byte[] PrecedenceDigits { get; }

    /// <summary>The index of the parameter named <paramref name="name"/> (ignoring case), or -1.</summary>
    public int IndexOf(string name) => Array.FindIndex(ParameterNames, n => string.Equals(n, name, StringComparison.OrdinalIgnoreCase));

    /// <exception cref="ArgumentException">The template is not supported; the message says why.</exception>
    public static RouteTemplate Parse(string? template)
    {
        if (template is null)
        {
            return Any;
        }

        var error = TryParse(template, out var parsed);
        return error is null ? parsed! : throw new ArgumentException(error, nameof(template));
    }

    /// <summary>Whether the path matches; on success <paramref name="captures"/> holds each parameter's range.</summary>
    public bool Match(scoped in RequestPath path, ref PathCaptures captures)
    {
        if (path.IsAsterisk)
        {
            if (CatchAllIndex >= 0)
            {
                captures[CatchAllIndex] = default;
            }

            return MatchesAnyPath;
        }

        var count = Segments.Length;
        if (path.Count < count || (!HasCatchAll && (path.Count > count || path.HasMore)))
        {
            return false;
        }

        for (var i = 0; i < count; i++)
        {
            var segment = Segments[i];
            if (segment.Literal is { } literal)
            {
                if (!PercentEncoding.SegmentEquals(path.Segment(i), literal))
                {
                    return false;
                }
            }
            else if (path.Segment(i).IsEmpty)
            {
                return false;
            }
            else
            {
                captures[segment.ParameterIndex] = path[i];
            }
        }

        if (CatchAllIndex >= 0)
        {
            captures[CatchAllIndex] = new Range(path.StartOf(count), path.Bytes.Length);
        }

        return true;
    }

    private static string? TryParse(string template, out RouteTemplate? parsed)
    {
        parsed = null;
        var error = RouteTemplateSyntax.Parse(template, out _, out var written);
        if (error is not null)
        {
            return $"route template '{template}': expected {error}";
        }

        var segments = new List<TemplateSegment>();
        var names = new List<string>();
        foreach (var segment in written)
        {
            if (!segment.IsParameter)
            {
                segments.Add(new TemplateSegment(Encoding.UTF8.GetBytes(segment.Text), -1));
                continue;
            }

            names.Add(segment.Text);
            if (!segment.IsCatchAll)
            {
                segments.Add(new TemplateSegment(null, names.Count - 1));
            }
        }

        parsed = new RouteTemplate(template, [.. segments], written.Count > 0 && written[^1].IsCatchAll, [.. names]);
        return null;
    }
}
