namespace LLRP.Configuration.Routes;

/// <summary>One entry of a route's <c>Match:Headers</c> (YARP's <c>RouteHeader</c>).</summary>
/// <param name="Name">The field name, compared without regard to case (RFC 9110 §5.1).</param>
/// <param name="Values">The values compared; one or more, except for <see cref="HeaderMatchMode.Exists"/> and <see cref="HeaderMatchMode.NotExists"/>, which take none.</param>
/// <param name="Mode">How the values are compared.</param>
/// <param name="IsCaseSensitive">Values compared with case (YARP's default is without).</param>
public sealed record HeaderMatchOptions(string Name, IReadOnlyList<string> Values, HeaderMatchMode Mode, bool IsCaseSensitive);
