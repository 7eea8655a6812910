namespace LLRP.Configuration.Routes;

/// <summary>
/// A route's <c>Transforms</c> (YARP's names), folded by kind: each list keeps the order the transforms were given in.
/// Applied once, by the forwarding rules every mode shares.
/// </summary>
/// <param name="Path">PathPrefix, PathRemovePrefix, PathSet, PathPattern, in order.</param>
/// <param name="Query">QueryValueParameter (Set/Append) and QueryRemoveParameter, in order.</param>
/// <param name="RequestHeaders">RequestHeader (Set/Append) and RequestHeaderRemove, in order.</param>
/// <param name="ResponseHeaders">ResponseHeader (Set/Append) and ResponseHeaderRemove, in order, each with its <c>When</c>.</param>
/// <param name="OriginalHost">RequestHeaderOriginalHost: true forwards the client's <c>Host</c>; null leaves it to <c>preserveHost</c>.</param>
/// <param name="CopyRequestHeaders">RequestHeadersCopy: false forwards none of the client's own fields (the proxy's are still added).</param>
/// <param name="Forwarded">X-Forwarded: null leaves it to <c>forwardedHeaders</c>.</param>
public sealed record RouteTransformOptions(
    IReadOnlyList<PathTransformOptions> Path,
    IReadOnlyList<QueryTransformOptions> Query,
    IReadOnlyList<HeaderTransformOptions> RequestHeaders,
    IReadOnlyList<HeaderTransformOptions> ResponseHeaders,
    bool? OriginalHost,
    bool CopyRequestHeaders,
    ForwardedTransformOptions? Forwarded)
{
    /// <summary>No transform.</summary>
    public static RouteTransformOptions None { get; } = new([], [], [], [], null, true, null);
}
