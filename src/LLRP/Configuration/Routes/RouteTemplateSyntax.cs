namespace LLRP.Configuration.Routes;

/// <summary>
/// The route templates LLRP matches, one check for the reader and the matcher: segments separated by '/', each a
/// literal or one parameter <c>{name}</c>, with <c>{*name}</c> or <c>{**name}</c> (the rest of the path) only as the
/// last segment; a leading '/' (or <c>~/</c>) and a trailing '/' are optional. ASP.NET Core's constraints, defaults,
/// optional parameters, complex segments and escaped braces are refused with the reason.
/// </summary>
internal static class RouteTemplateSyntax
{
    public const int MaxParameters = 8;
    public const int MaxSegments = 31;

    /// <summary>Null when <paramref name="template"/> is supported; else what is allowed instead, as an error message completes "expected".</summary>
    /// <param name="template">The template as configured.</param>
    /// <param name="path">The template with one leading '/'.</param>
    /// <param name="segments">Its segments, without the leading and trailing '/'.</param>
    public static string? Parse(string template, out string path, out IReadOnlyList<RouteTemplateSegment> segments)
    {
        path = template.StartsWith("~/", StringComparison.Ordinal) ? template[1..] : template.StartsWith('/') ? template : "/" + template;
        segments = [];
        var body = path.AsSpan(1);
        body = body.EndsWith('/') ? body[..^1] : body;
        if (body.IsEmpty)
        {
            return null;
        }

        var parsed = new List<RouteTemplateSegment>();
        foreach (var range in body.Split('/'))
        {
            var text = body[range];
            if (parsed.Count > 0 && parsed[^1].IsCatchAll)
            {
                return $"a catch-all parameter ({{**{parsed[^1].Text}}}) only as the last segment";
            }

            if (text.IsEmpty)
            {
                return "a route template without empty segments ('//')";
            }

            if (text.IndexOfAny('{', '}') < 0)
            {
                if (text.ContainsAny("?# ") || text.ContainsAnyInRange('\0', '\x1f') || text.Contains('\x7f'))
                {
                    return "literal segments without spaces, control characters, '?' or '#'";
                }

                parsed.Add(new RouteTemplateSegment(text.ToString(), false, false));
                continue;
            }

            var error = Parameter(text, out var parameter);
            if (error is not null)
            {
                return error;
            }

            if (parsed.Exists(s => s.IsParameter && string.Equals(s.Text, parameter.Text, StringComparison.OrdinalIgnoreCase)))
            {
                return $"each parameter name once ({{{parameter.Text}}} appears twice)";
            }

            parsed.Add(parameter);
        }

        if (parsed.Count(s => s.IsParameter) > MaxParameters)
        {
            return $"at most {MaxParameters} parameters in a route template";
        }

        if (parsed.Count > MaxSegments)
        {
            return $"at most {MaxSegments} segments in a route template";
        }

        segments = parsed;
        return null;
    }

    private static string? Parameter(ReadOnlySpan<char> segment, out RouteTemplateSegment parameter)
    {
        parameter = new RouteTemplateSegment("", true, false);
        if (segment.Contains("{{", StringComparison.Ordinal) || segment.Contains("}}", StringComparison.Ordinal))
        {
            return $"balanced braces: escaped braces ({{{{ or }}}}, in '{segment}') are not supported by LLRP";
        }

        if (segment.Count('{') != segment.Count('}'))
        {
            return $"balanced braces: each parameter is {{name}} ('{segment}' is not)";
        }

        if (segment.Count('{') != 1 || segment[0] != '{' || segment[^1] != '}')
        {
            return $"a segment that is a literal or exactly one parameter: complex segments such as '{segment}' are not supported by LLRP";
        }

        var body = segment[1..^1];
        var name = body.TrimStart('*');
        if (body.Length - name.Length > 2)
        {
            return $"a catch-all parameter written {{*name}} or {{**name}} ('{segment}' is not)";
        }

        var refused = name.IndexOfAny(":=?") switch
        {
            < 0 => null,
            var at when name[at] == ':' => $"parameters without constraints ({{id}}, not {{id:int}}): route constraints such as '{segment}' are not supported by LLRP",
            var at when name[at] == '=' => $"parameters without defaults ({{id}}, not {{id=1}}): default values such as '{segment}' are not supported by LLRP",
            _ => $"required parameters ({{id}}, not {{id?}}): optional parameters such as '{segment}' are not supported by LLRP",
        };
        if (refused is not null)
        {
            return refused;
        }

        if (name.IsEmpty || name.ContainsAny("/* ") || name.ContainsAnyInRange('\0', '\x1f'))
        {
            return $"parameters with a name, such as {{id}} or {{**rest}} ('{segment}' has none)";
        }

        parameter = new RouteTemplateSegment(name.ToString(), true, body.Length != name.Length);
        return null;
    }
}
