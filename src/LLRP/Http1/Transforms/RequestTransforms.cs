namespace LLRP.Http1.Transforms;

/// <summary>
/// A route's request transforms, compiled to bytes once per configuration: what <see cref="RequestRewriter"/> changes
/// in the target and the fields of each request of the route, in every mode.
/// </summary>
internal sealed class RequestTransforms
{
    /// <summary>The transforms of a route that has none: the forwarding rules alone.</summary>
    public static RequestTransforms None { get; } = new([], [], [], null, copyHeaders: true, forwarded: null);

    public RequestTransforms(PathStep[] path, QueryStep[] query, HeaderStep[] headers, bool? originalHost, bool copyHeaders, ForwardedActions? forwarded)
    {
        Path = path;
        Query = query;
        Headers = headers;
        OriginalHost = originalHost;
        CopyHeaders = copyHeaders;
        Forwarded = forwarded;
        ChangesTarget = path.Length > 0 || query.Length > 0;
        ChangesFields = headers.Length > 0 || !copyHeaders;
        Overhead = path.Sum(step => step.Value.Length + step.Pattern.Sum(piece => piece.Literal.Length) + 16)
            + query.Sum(step => step.Encoded.Length + 1)
            + headers.Sum(step => step.Name.Length + step.Value.Length + 4);
    }

    public PathStep[] Path { get; }

    public QueryStep[] Query { get; }

    public HeaderStep[] Headers { get; }

    /// <summary>RequestHeaderOriginalHost; null leaves it to <c>preserveHost</c>.</summary>
    public bool? OriginalHost { get; }

    /// <summary>RequestHeadersCopy: false forwards none of the client's own end-to-end fields.</summary>
    public bool CopyHeaders { get; }

    /// <summary>X-Forwarded; null leaves it to <c>forwardedHeaders</c>.</summary>
    public ForwardedActions? Forwarded { get; }

    /// <summary>The path or the query is changed: the target is rendered step by step.</summary>
    public bool ChangesTarget { get; }

    /// <summary>Fields are added, replaced or dropped beyond the forwarding rules.</summary>
    public bool ChangesFields { get; }

    /// <summary>The most bytes the transforms add to a head beyond the captured path.</summary>
    public int Overhead { get; }

    /// <summary>True when a <see cref="HeaderStep"/> replaces or drops the field <paramref name="name"/>.</summary>
    public bool DropsField(ReadOnlySpan<byte> name)
    {
        foreach (ref readonly var step in Headers.AsSpan())
        {
            if (step.DropsReceived && System.Text.Ascii.EqualsIgnoreCase(name, step.Name))
            {
                return true;
            }
        }

        return false;
    }
}
