using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// The route templates LLRP matches (<see cref="RouteMatchOptions.Path"/>), checked before the matcher compiles them:
/// segments separated by '/', each a literal or one parameter <c>{name}</c>, with <c>{*name}</c> or <c>{**name}</c>
/// (the rest of the path) only as the last segment. ASP.NET Core's constraints, defaults, optional parameters, complex
/// segments and escaped braces are refused with the reason.
/// </summary>
internal static class RouteTemplateSyntax
{
    /// <summary>The template with a leading '/' (ASP.NET Core allows it left out, as in <c>{**catch-all}</c>), and its parameter names in order.</summary>
    public static (string Template, IReadOnlyList<string> Parameters) Read(IConfigurationSection section, string template)
    {
        if (template.StartsWith("~/", StringComparison.Ordinal))
        {
            throw SectionValue.Error(section, "a route template starting with '/' ('~/' is not supported by LLRP)");
        }

        var path = template.StartsWith('/') ? template : "/" + template;
        var segments = path[1..].Split('/');
        var parameters = new List<string>();
        for (var i = 0; i < segments.Length; i++)
        {
            var segment = segments[i];
            var last = i == segments.Length - 1;
            if (segment.Length == 0 && !last)
            {
                throw SectionValue.Error(section, "a route template without empty segments ('//')");
            }

            if (!segment.Contains('{') && !segment.Contains('}'))
            {
                if (segment.Any(c => char.IsControl(c) || c is '?' or '#' or ' '))
                {
                    throw SectionValue.Error(section, "literal segments without spaces, control characters, '?' or '#'");
                }

                continue;
            }

            var name = Parameter(section, segment, last);
            if (parameters.Contains(name, StringComparer.OrdinalIgnoreCase))
            {
                throw SectionValue.Error(section, $"each parameter name once ({{{name}}} appears twice)");
            }

            parameters.Add(name);
        }

        return (path, parameters);
    }

    private static string Parameter(IConfigurationSection section, string segment, bool last)
    {
        if (!segment.StartsWith('{') || !segment.EndsWith('}') || segment.Count(c => c == '{') != 1 || segment.Count(c => c == '}') != 1)
        {
            throw SectionValue.Error(section, segment.Contains("{{", StringComparison.Ordinal) || segment.Contains("}}", StringComparison.Ordinal)
                ? "balanced braces: escaped braces ({{ or }}) are not supported by LLRP"
                : segment.Count(c => c == '{') != segment.Count(c => c == '}')
                    ? "balanced braces: each parameter is {name}"
                    : $"a segment that is a literal or exactly one parameter: complex segments such as '{segment}' are not supported by LLRP");
        }

        var body = segment[1..^1];
        var catchAll = body.StartsWith('*');
        var name = body.TrimStart('*');
        if (body.Length - name.Length > 2)
        {
            throw SectionValue.Error(section, "a catch-all parameter written {*name} or {**name}");
        }

        string? refused = name.IndexOfAny([':', '=', '?']) switch
        {
            < 0 => null,
            var at when name[at] == ':' => "parameters without constraints ({id}, not {id:int}): route constraints are not supported by LLRP",
            var at when name[at] == '=' => "parameters without defaults ({id}, not {id=1}): defaults are not supported by LLRP",
            _ => "required parameters ({id}, not {id?}): optional parameters are not supported by LLRP",
        };
        if (refused is not null)
        {
            throw SectionValue.Error(section, refused);
        }

        if (name.Length == 0 || name.Any(c => char.IsControl(c) || c is '/' or '*' or ' '))
        {
            throw SectionValue.Error(section, "parameters with a name, such as {id} or {**rest}");
        }

        return catchAll && !last
            ? throw SectionValue.Error(section, $"a catch-all parameter ({segment}) only as the last segment")
            : name;
    }
}
