namespace LLRP.Configuration.Routes;

/// <summary>One entry of a route's <c>Match:QueryParameters</c> (YARP's <c>RouteQueryParameter</c>).</summary>
/// <param name="Name">The parameter name, compared without regard to case, after percent-decoding.</param>
/// <param name="Values">The values compared; one or more, except for <see cref="QueryMatchMode.Exists"/>, which takes none.</param>
/// <param name="Mode">How the values are compared.</param>
/// <param name="IsCaseSensitive">Values compared with case (YARP's default is without).</param>
public sealed record QueryMatchOptions(string Name, IReadOnlyList<string> Values, QueryMatchMode Mode, bool IsCaseSensitive);
