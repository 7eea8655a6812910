namespace LLRP.Configuration.Routes;

/// <summary>The attributes of the affinity cookie (<c>SessionAffinity:Cookie</c>); null leaves an attribute out.</summary>
public sealed record AffinityCookieOptions(string Path, string? Domain, bool HttpOnly, bool Secure, string? SameSite, TimeSpan? MaxAge)
{
    /// <summary>YARP's defaults: path <c>/</c>, HttpOnly, no Secure, no SameSite, a session cookie.</summary>
    public static AffinityCookieOptions Default { get; } = new("/", null, true, false, null, null);
}
