namespace LLRP.Configuration.Routes;

/// <summary>
/// A route's <c>Match</c> (YARP's <c>RouteMatch</c>): every part given must match. Path and hosts are compared without
/// regard to case, as ASP.NET Core's routing does.
/// </summary>
/// <param name="Path">
/// A route template: literal segments, <c>{name}</c> (one segment), <c>{**name}</c> or <c>{*name}</c> (the rest of the
/// path, possibly empty), the last only at the end. Null matches every path.
/// </param>
/// <param name="Hosts">
/// Hosts as <c>Host</c> (or an absolute-form target) names them: exact (<c>example.com</c>), a wildcard of one or more
/// labels (<c>*.example.com</c>), each with or without a port (<c>example.com:8080</c>, <c>*:8080</c>). Empty matches every host.
/// </param>
/// <param name="Methods">Methods, compared exactly (RFC 9110 §9.1: case-sensitive). Empty matches every method.</param>
/// <param name="Headers">Header conditions, all of which must hold.</param>
/// <param name="QueryParameters">Query conditions, all of which must hold.</param>
public sealed record RouteMatchOptions(
    string? Path,
    IReadOnlyList<string> Hosts,
    IReadOnlyList<string> Methods,
    IReadOnlyList<HeaderMatchOptions> Headers,
    IReadOnlyList<QueryMatchOptions> QueryParameters)
{
    /// <summary>Every request: the implicit catch-all route of <c>downstream</c>.</summary>
    public static RouteMatchOptions Any { get; } = new("/{**catch-all}", [], [], [], []);
}
