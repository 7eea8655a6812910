using System.Text;
using LLRP.Configuration.Routes;
using LLRP.Http1.Transforms;

namespace LLRP.Routing;

/// <summary>Compiles a route's <see cref="RouteTransformOptions"/> to the bytes the forwarding rules apply per request.</summary>
internal static class TransformCompiler
{
    public static RequestTransforms Request(RouteTransformOptions transforms, IReadOnlyList<string> parameters)
        => ReferenceEquals(transforms, RouteTransformOptions.None) ? RequestTransforms.None : new RequestTransforms(
            transforms.Path.Select(step => Path(step, parameters)).ToArray(),
            transforms.Query.Select(Query).ToArray(),
            transforms.RequestHeaders.Select(Header).ToArray(),
            transforms.OriginalHost,
            transforms.CopyRequestHeaders,
            transforms.Forwarded is { } forwarded ? new ForwardedActions(forwarded.For, forwarded.Proto, forwarded.Host, forwarded.Prefix) : null);

    public static ResponseTransforms Response(RouteTransformOptions transforms)
        => transforms.ResponseHeaders.Count == 0 ? ResponseTransforms.None : new ResponseTransforms(transforms.ResponseHeaders.Select(Header).ToArray());

    private static PathStep Path(PathTransformOptions step, IReadOnlyList<string> parameters)
        => step.Kind == PathTransformKind.Pattern
            ? new PathStep(step.Kind, [], Pattern(step.Value, parameters))
            : new PathStep(step.Kind, Encoding.ASCII.GetBytes(step.Value), []);

    /// <summary>
    /// A <c>PathPattern</c> cut into literal pieces and captures: <c>{name}</c> or <c>{**name}</c> is replaced by what the
    /// route's parameter of that name captured (nothing when the route has none of that name, as YARP).
    /// </summary>
    private static PatternPiece[] Pattern(string pattern, IReadOnlyList<string> parameters)
    {
        var pieces = new List<PatternPiece>();
        var position = 0;
        while (position < pattern.Length)
        {
            var open = pattern.IndexOf('{', position);
            if (open < 0)
            {
                pieces.Add(new PatternPiece(Encoding.ASCII.GetBytes(pattern[position..]), -1));
                break;
            }

            var close = pattern.IndexOf('}', open);
            if (open > position)
            {
                pieces.Add(new PatternPiece(Encoding.ASCII.GetBytes(pattern[position..open]), -1));
            }

            var name = pattern[(open + 1)..close].TrimStart('*');
            var index = IndexOf(parameters, name);
            if (index >= 0)
            {
                pieces.Add(new PatternPiece([], index));
            }

            position = close + 1;
        }

        return pieces.ToArray();
    }

    private static int IndexOf(IReadOnlyList<string> parameters, string name)
    {
        for (var i = 0; i < parameters.Count; i++)
        {
            if (parameters[i].Equals(name, StringComparison.OrdinalIgnoreCase))
            {
                return i;
            }
        }

        return -1;
    }

    private static QueryStep Query(QueryTransformOptions step)
        => new(step.Action, Encoding.UTF8.GetBytes(step.Name), Encoding.ASCII.GetBytes($"{Uri.EscapeDataString(step.Name)}={Uri.EscapeDataString(step.Value)}"));

    private static HeaderStep Header(HeaderTransformOptions step)
        => new(step.Action, Encoding.ASCII.GetBytes(step.Name), Encoding.UTF8.GetBytes(step.Value), step.When);
}
