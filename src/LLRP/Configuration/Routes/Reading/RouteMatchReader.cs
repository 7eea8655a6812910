using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>A route's <c>Match</c> (YARP's <c>RouteMatch</c>): Path, Hosts, Methods, Headers, QueryParameters.</summary>
internal static class RouteMatchReader
{
    private static readonly string[] Keys = ["Path", "Hosts", "Methods", "Headers", "QueryParameters"];
    private static readonly string[] ConditionKeys = ["Name", "Values", "Mode", "IsCaseSensitive"];

    /// <summary>The match, and the names of the parameters its path captures (for <c>PathPattern</c>).</summary>
    public static (RouteMatchOptions Match, IReadOnlyList<string> Parameters) Read(IConfigurationSection match)
    {
        SectionValue.Children(match, "a section with Path or Hosts");
        SectionKeys.Check(match, Keys);
        var pathSection = match.GetSection("Path");
        var (path, parameters) = SectionValue.String(pathSection) is { Length: > 0 } template
            ? Template(pathSection, template)
            : (null, []);
        var hostsSection = match.GetSection("Hosts");
        var hosts = SectionValue.List(hostsSection, "hosts such as example.com, *.example.com or example.com:8080");
        if (path is null && hosts.Count == 0)
        {
            throw SectionValue.Error(match, "a Path or Hosts (YARP requires one of them)");
        }

        foreach (var (host, index) in hosts.Select((host, index) => (host, index)))
        {
            if (!HostSyntax.IsValid(host, wildcards: true))
            {
                throw SectionValue.Error(hostsSection.GetSection(index.ToString(System.Globalization.CultureInfo.InvariantCulture)), "a host[:port]: a name, an address literal, *.domain or *");
            }
        }

        var methodsSection = match.GetSection("Methods");
        var methods = SectionValue.List(methodsSection, "methods such as GET");
        if (methods.FirstOrDefault(method => !FieldSyntax.IsToken(method)) is { } bad)
        {
            throw SectionValue.Error(methodsSection, $"method names (tokens, RFC 9110 §9.1); '{SectionValue.Shown(bad)}' is not one");
        }

        var headers = SectionValue.Children(match.GetSection("Headers"), "an array of header conditions").Select(ReadHeader).ToList();
        var query = SectionValue.Children(match.GetSection("QueryParameters"), "an array of query parameter conditions").Select(ReadQuery).ToList();
        return (new RouteMatchOptions(path, hosts, methods.Distinct(StringComparer.Ordinal).ToList(), headers, query), parameters);
    }

    private static HeaderMatchOptions ReadHeader(IConfigurationSection condition)
    {
        SectionKeys.Check(condition, ConditionKeys);
        var name = SectionValue.Required(condition.GetSection("Name"), "a header field name (a token)");
        if (!FieldSyntax.IsToken(name))
        {
            throw SectionValue.Error(condition.GetSection("Name"), "a header field name (a token, RFC 9110 §5.1)");
        }

        var mode = SectionValue.Enum<HeaderMatchMode>(condition.GetSection("Mode")) ?? HeaderMatchMode.ExactHeader;
        var values = ReadValues(condition, takesNone: mode is HeaderMatchMode.Exists or HeaderMatchMode.NotExists, mode.ToString());
        return new HeaderMatchOptions(name, values, mode, SectionValue.Bool(condition.GetSection("IsCaseSensitive")) ?? false);
    }

    private static QueryMatchOptions ReadQuery(IConfigurationSection condition)
    {
        SectionKeys.Check(condition, ConditionKeys);
        var name = SectionValue.Required(condition.GetSection("Name"), "a query parameter name");
        var mode = SectionValue.Enum<QueryMatchMode>(condition.GetSection("Mode")) ?? QueryMatchMode.Exact;
        var values = ReadValues(condition, takesNone: mode == QueryMatchMode.Exists, mode.ToString());
        return new QueryMatchOptions(name, values, mode, SectionValue.Bool(condition.GetSection("IsCaseSensitive")) ?? false);
    }

    /// <summary>Values: one or more non-empty strings, or none at all for the modes that test presence only.</summary>
    private static IReadOnlyList<string> ReadValues(IConfigurationSection condition, bool takesNone, string mode)
    {
        var section = condition.GetSection("Values");
        var values = SectionValue.List(section, "non-empty values");
        return (takesNone, values.Count) switch
        {
            (true, > 0) => throw SectionValue.Error(section, $"no Values with Mode {mode}"),
            (false, 0) => throw SectionValue.Error(section, $"one or more values with Mode {mode}"),
            _ => values,
        };
    }

    /// <summary>A route template LLRP matches (<see cref="RouteTemplateSyntax"/>): with one leading '/', and its parameters' names in order.</summary>
    public static (string Path, IReadOnlyList<string> Parameters) Template(IConfigurationSection section, string template)
        => RouteTemplateSyntax.Parse(template, out var path, out var segments) is { } allowed
            ? throw SectionValue.Error(section, allowed)
            : (path, [.. segments.Where(s => s.IsParameter).Select(s => s.Text)]);
}
