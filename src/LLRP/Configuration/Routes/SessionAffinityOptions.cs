namespace LLRP.Configuration.Routes;

/// <summary>
/// A cluster's <c>SessionAffinity</c>: a request that names a destination (in a cookie or a header the proxy set on an
/// earlier response) goes to it while it is available.
/// </summary>
/// <param name="Policy">Where the key travels.</param>
/// <param name="FailurePolicy">What happens when the named destination is not available.</param>
/// <param name="KeyName">The cookie or header name (<c>AffinityKeyName</c>; YARP's default is <c>.Yarp.Affinity</c>).</param>
/// <param name="Cookie">The cookie's attributes, for <see cref="AffinityPolicy.Cookie"/>.</param>
public sealed record SessionAffinityOptions(AffinityPolicy Policy, AffinityFailurePolicy FailurePolicy, string KeyName, AffinityCookieOptions Cookie);
