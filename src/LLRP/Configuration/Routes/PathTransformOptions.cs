namespace LLRP.Configuration.Routes;

/// <summary>One path transform.</summary>
/// <param name="Kind">Which.</param>
/// <param name="Value">The prefix, the path, or the pattern (a route template whose parameters the route's path captured); starts with '/'.</param>
public sealed record PathTransformOptions(PathTransformKind Kind, string Value);
