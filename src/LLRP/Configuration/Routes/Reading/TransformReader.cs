using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// A route's <c>Transforms</c>: an array of objects, each one YARP transform named by its first key, folded by kind into
/// <see cref="RouteTransformOptions"/> in the order given. Unknown transforms, YARP's transforms LLRP does not implement and
/// keys a transform does not take are refused, naming the transform's path (<c>…:Transforms:{index}</c>).
/// </summary>
internal sealed class TransformReader
{
    /// <summary>Each supported transform and the keys it takes besides its name.</summary>
    private static readonly Dictionary<string, string[]> Supported = new(StringComparer.OrdinalIgnoreCase)
    {
        ["PathPrefix"] = [],
        ["PathRemovePrefix"] = [],
        ["PathSet"] = [],
        ["PathPattern"] = [],
        ["QueryValueParameter"] = ["Set", "Append"],
        ["QueryRemoveParameter"] = [],
        ["RequestHeader"] = ["Set", "Append"],
        ["RequestHeaderRemove"] = [],
        ["RequestHeaderOriginalHost"] = [],
        ["RequestHeadersCopy"] = [],
        ["X-Forwarded"] = ["For", "Proto", "Host", "Prefix", "HeaderPrefix"],
        ["ResponseHeader"] = ["Set", "Append", "When"],
        ["ResponseHeaderRemove"] = ["When"],
    };

    /// <summary>YARP's transforms that LLRP refuses, each with the reason.</summary>
    private static readonly Dictionary<string, string> Unsupported = new(StringComparer.OrdinalIgnoreCase)
    {
        ["QueryRouteParameter"] = "query values from route values",
        ["HttpMethodChange"] = "the method is forwarded as received",
        ["RequestHeadersAllowed"] = "use RequestHeadersCopy false with RequestHeader Set",
        ["RequestHeaderRouteValue"] = "header values from route values",
        ["Forwarded"] = "RFC 7239 Forwarded; use X-Forwarded",
        ["ClientCert"] = "client certificates are not requested",
        ["ResponseHeadersCopy"] = "every response field is forwarded",
        ["ResponseHeadersAllowed"] = "every response field is forwarded; use ResponseHeaderRemove",
        ["ResponseTrailersCopy"] = "trailers are forwarded as received",
        ["ResponseTrailer"] = "trailers are forwarded as received",
        ["ResponseTrailerRemove"] = "trailers are forwarded as received",
        ["ResponseTrailersAllowed"] = "trailers are forwarded as received",
    };

    private readonly List<PathTransformOptions> _path = [];
    private readonly List<QueryTransformOptions> _query = [];
    private readonly List<HeaderTransformOptions> _requestHeaders = [];
    private readonly List<HeaderTransformOptions> _responseHeaders = [];
    private readonly IReadOnlyList<string> _routeParameters;
    private bool? _originalHost;
    private bool? _copyRequestHeaders;
    private ForwardedTransformOptions? _forwarded;

    private TransformReader(IReadOnlyList<string> routeParameters) => _routeParameters = routeParameters;

    /// <param name="routeParameters">The parameters the route's path captures, which <c>PathPattern</c> may use.</param>
    public static RouteTransformOptions Read(IConfigurationSection transforms, IReadOnlyList<string> routeParameters)
    {
        var reader = new TransformReader(routeParameters);
        foreach (var transform in SectionValue.Children(transforms, "an array of transforms, such as [ { \"PathRemovePrefix\": \"/api\" } ]"))
        {
            reader.Add(transform);
        }

        return new RouteTransformOptions(reader._path, reader._query, reader._requestHeaders, reader._responseHeaders, reader._originalHost, reader._copyRequestHeaders ?? true, reader._forwarded);
    }

    private void Add(IConfigurationSection transform)
    {
        var keys = SectionValue.Children(transform, "an object naming one transform, such as { \"PathPrefix\": \"/api\" }");
        var names = keys.Where(key => Supported.ContainsKey(key.Key) || Unsupported.ContainsKey(key.Key)).ToList();
        if (names.Count != 1)
        {
            var first = keys.FirstOrDefault()?.Key;
            var hint = names.Count > 1 ? $"one transform per object, not {string.Join(" and ", names.Select(n => n.Key))}"
                : first is not null && SectionKeys.Nearest(first, Supported.Keys) is { } nearest ? $"a transform LLRP supports (did you mean {nearest}?)"
                : "a transform LLRP supports";
            throw SectionValue.Error(transform, $"{hint}: {string.Join(", ", Supported.Keys)}");
        }

        var name = names[0];
        if (Unsupported.TryGetValue(name.Key, out var reason))
        {
            throw SectionValue.Error(transform, $"no {name.Key}: it is not supported by LLRP ({reason}); supported transforms: {string.Join(", ", Supported.Keys)}");
        }

        var takes = Supported[name.Key];
        if (keys.FirstOrDefault(key => key != name && !takes.Contains(key.Key, StringComparer.OrdinalIgnoreCase)) is { } extra)
        {
            throw SectionValue.Error(transform, $"only the keys of {name.Key} ({string.Join(", ", [name.Key, .. takes])}); '{extra.Key}' is not one");
        }

        Fold(transform, name);
    }

    private void Fold(IConfigurationSection transform, IConfigurationSection name)
    {
        switch (name.Key.ToUpperInvariant())
        {
            case "PATHPREFIX":
                _path.Add(new(PathTransformKind.Prefix, PathValue(name)));
                break;
            case "PATHREMOVEPREFIX":
                _path.Add(new(PathTransformKind.RemovePrefix, PathValue(name)));
                break;
            case "PATHSET":
                _path.Add(new(PathTransformKind.Set, PathValue(name)));
                break;
            case "PATHPATTERN":
                _path.Add(new(PathTransformKind.Pattern, PathPattern(name)));
                break;
            case "QUERYVALUEPARAMETER":
                var (action, value) = HeaderTransformReader.SetOrAppend(transform);
                _query.Add(new(action, QueryName(name), value.Any(char.IsControl) ? throw SectionValue.Error(transform.GetSection(action.ToString()), "a query value without control characters") : value));
                break;
            case "QUERYREMOVEPARAMETER":
                _query.Add(new(TransformAction.Remove, QueryName(name), ""));
                break;
            case "REQUESTHEADER":
            case "REQUESTHEADERREMOVE":
                _requestHeaders.Add(HeaderTransformReader.Read(transform, name, request: true));
                break;
            case "RESPONSEHEADER":
            case "RESPONSEHEADERREMOVE":
                _responseHeaders.Add(HeaderTransformReader.Read(transform, name, request: false));
                break;
            case "REQUESTHEADERORIGINALHOST":
                Once(transform, _originalHost is not null);
                _originalHost = RequiredBool(name);
                break;
            case "REQUESTHEADERSCOPY":
                Once(transform, _copyRequestHeaders is not null);
                _copyRequestHeaders = RequiredBool(name);
                break;
            default:
                Once(transform, _forwarded is not null);
                _forwarded = ForwardedTransformReader.Read(transform, name);
                break;
        }
    }

    /// <summary>Throws when the transform was already given in this route.</summary>
    private static void Once(IConfigurationSection transform, bool given)
    {
        if (given)
        {
            throw SectionValue.Error(transform, "each of RequestHeaderOriginalHost, RequestHeadersCopy and X-Forwarded once per route");
        }
    }

    private static bool RequiredBool(IConfigurationSection name)
        => SectionValue.Bool(name) ?? throw SectionValue.Error(name, "true or false");

    private static string PathValue(IConfigurationSection name)
    {
        var value = SectionValue.Required(name, "a path starting with '/'");
        return value.StartsWith('/') && value.All(c => c is > ' ' and <= '~' and not '?' and not '#')
            ? value
            : throw SectionValue.Error(name, "a path starting with '/', of visible ASCII without '?' or '#'");
    }

    private string PathPattern(IConfigurationSection name)
    {
        var (pattern, parameters) = RouteMatchReader.Template(name, PathValue(name));
        return parameters.FirstOrDefault(p => !_routeParameters.Contains(p, StringComparer.OrdinalIgnoreCase)) is { } missing
            ? throw SectionValue.Error(name, $"a pattern using the parameters the route's Match:Path captures ({string.Join(", ", _routeParameters.Select(p => $"{{{p}}}"))}); {{{missing}}} is not one")
            : pattern;
    }

    private static string QueryName(IConfigurationSection name)
    {
        var value = SectionValue.Required(name, "a query parameter name");
        return value.All(c => !char.IsControl(c)) ? value : throw SectionValue.Error(name, "a query parameter name without control characters");
    }
}
