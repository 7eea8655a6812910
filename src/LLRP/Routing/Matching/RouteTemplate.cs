using LLRP.Http1;
using System.Text;

namespace LLRP.Routing;

/// <summary>
/// A route's path template, the subset of ASP.NET Core's syntax LLRP supports: literal segments, <c>{name}</c> (one
/// non-empty segment) and a final <c>{**name}</c> or <c>{*name}</c> (the rest of the path, possibly empty). A leading
/// '/' (or <c>~/</c>) and a trailing '/' are optional. Constraints, defaults, optional parameters and complex segments
/// are refused with a message that says so.
/// </summary>
internal sealed class RouteTemplate
{
    public const int MaxParameters = 8;
    public const int MaxSegments = 31;

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

    /// <summary>Null when <paramref name="template"/> is supported, else what is wrong with it.</summary>
    public static string? Validate(string template) => TryParse(template, out _);

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
        var body = template.StartsWith("~/", StringComparison.Ordinal) ? template.AsSpan(2) : template.AsSpan();
        body = body.StartsWith('/') ? body[1..] : body;
        body = body.EndsWith('/') ? body[..^1] : body;
        if (body.IsEmpty)
        {
            parsed = new RouteTemplate(template, [], false, []);
            return null;
        }

        var segments = new List<TemplateSegment>();
        var names = new List<string>();
        var hasCatchAll = false;
        foreach (var range in body.Split('/'))
        {
            var text = body[range];
            if (hasCatchAll)
            {
                return Refuse(template, "a segment after the catch-all parameter");
            }

            if (text.IsEmpty)
            {
                return Refuse(template, "an empty segment ('//')");
            }

            if (text.IndexOfAny('{', '}') < 0)
            {
                if (text.Contains('?'))
                {
                    return Refuse(template, $"'?' in the literal segment '{text}'");
                }

                segments.Add(new TemplateSegment(Encoding.UTF8.GetBytes(text.ToString()), -1));
                continue;
            }

            var error = TemplateParameterSyntax.Check(text, out var name, out var isCatchAll);
            if (error is not null)
            {
                return Refuse(template, error);
            }

            if (names.Exists(n => string.Equals(n, name, StringComparison.OrdinalIgnoreCase)))
            {
                return Refuse(template, $"a parameter name used twice ('{name}')");
            }

            names.Add(name);
            hasCatchAll = isCatchAll;
            if (!isCatchAll)
            {
                segments.Add(new TemplateSegment(null, names.Count - 1));
            }
        }

        if (names.Count > MaxParameters)
        {
            return Refuse(template, $"more than {MaxParameters} parameters");
        }

        if (segments.Count > MaxSegments)
        {
            return Refuse(template, $"more than {MaxSegments} segments");
        }

        parsed = new RouteTemplate(template, [.. segments], hasCatchAll, [.. names]);
        return null;
    }

    private static string Refuse(string template, string what) => $"route template '{template}': {what} is not supported";
}
