namespace LLRP.Configuration.Routes;

/// <summary>One route of the <c>ReverseProxy:Routes</c> section (YARP's <c>RouteConfig</c>): which requests it takes and where they go.</summary>
/// <param name="Id">The route's key in the section, as logs and metrics name it.</param>
/// <param name="ClusterId">The cluster its requests go to; it must exist.</param>
/// <param name="Order">Lower first; routes of equal order are ranked by specificity (<see cref="RouteMatchOptions"/>).</param>
/// <param name="Match">What a request must have to take this route.</param>
/// <param name="Transforms">What is changed in its requests and responses, in the order given.</param>
public sealed record RouteOptions(string Id, string ClusterId, int Order, RouteMatchOptions Match, RouteTransformOptions Transforms);
