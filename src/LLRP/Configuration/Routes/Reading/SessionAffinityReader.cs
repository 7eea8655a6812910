using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>A cluster's <c>SessionAffinity</c>: null unless <c>Enabled</c> is true.</summary>
internal static class SessionAffinityReader
{
    /// <summary>The key's name when <c>AffinityKeyName</c> is left out (YARP 1.x's default; YARP 2 requires the key).</summary>
    public const string DefaultKeyName = ".Yarp.Affinity";

    private static readonly string[] Keys = ["Enabled", "Policy", "FailurePolicy", "AffinityKeyName", "Cookie"];
    private static readonly string[] CookieKeys = ["Path", "Domain", "HttpOnly", "SecurePolicy", "SameSite", "Expiration", "MaxAge", "IsEssential"];

    /// <summary>
    /// Policy <c>Cookie</c> unless given (YARP 2's <c>HashCookie</c> and <c>ArrCookie</c>, which hide the destination's
    /// name in the key, are refused); failure policy <c>Redistribute</c> unless given.
    /// </summary>
    public static SessionAffinityOptions? Read(IConfigurationSection affinity)
    {
        SectionValue.Children(affinity, "a section with Enabled, Policy, FailurePolicy, AffinityKeyName, Cookie");
        SectionKeys.Check(affinity, Keys);
        var policySection = affinity.GetSection("Policy");
        if (SectionValue.String(policySection) is { } policyName && !Enum.TryParse<AffinityPolicy>(policyName.Trim(), ignoreCase: true, out _))
        {
            throw SectionValue.Error(policySection, "Cookie or CustomHeader: other affinity policies (HashCookie, ArrCookie) are not supported by LLRP");
        }

        var policy = SectionValue.Enum<AffinityPolicy>(policySection) ?? AffinityPolicy.Cookie;
        var failure = SectionValue.Enum<AffinityFailurePolicy>(affinity.GetSection("FailurePolicy")) ?? AffinityFailurePolicy.Redistribute;
        var keySection = affinity.GetSection("AffinityKeyName");
        var key = SectionValue.String(keySection) ?? DefaultKeyName;
        if (!FieldSyntax.IsToken(key))
        {
            throw SectionValue.Error(keySection, $"a {(policy == AffinityPolicy.Cookie ? "cookie" : "header field")} name (a token)");
        }

        var cookie = ReadCookie(affinity.GetSection("Cookie"));
        return SectionValue.Bool(affinity.GetSection("Enabled")) == true ? new SessionAffinityOptions(policy, failure, key, cookie) : null;
    }

    /// <summary>
    /// The cookie's attributes, YARP's defaults for those left out. <c>SecurePolicy</c> <c>Always</c> sets Secure;
    /// <c>None</c> and <c>SameAsRequest</c> (the default) do not, since the proxy does not know how every client reached it.
    /// <c>MaxAge</c>, else <c>Expiration</c> (a lifetime too), gives Max-Age. <c>IsEssential</c> is accepted and has no
    /// effect: LLRP has no cookie consent policy, so the cookie is always sent.
    /// </summary>
    private static AffinityCookieOptions ReadCookie(IConfigurationSection cookie)
    {
        SectionValue.Children(cookie, $"a section with {string.Join(", ", CookieKeys)}");
        SectionKeys.Check(cookie, CookieKeys);
        var defaults = AffinityCookieOptions.Default;
        var pathSection = cookie.GetSection("Path");
        var path = SectionValue.String(pathSection) ?? defaults.Path;
        if (!path.StartsWith('/') || !IsAttributeValue(path))
        {
            throw SectionValue.Error(pathSection, "a cookie path starting with '/', without ';' or control characters (RFC 6265 §5.2.4)");
        }

        var domainSection = cookie.GetSection("Domain");
        var domain = SectionValue.String(domainSection);
        if (domain is not null && !HostSyntax.IsValid(domain.TrimStart('.'), wildcards: false))
        {
            throw SectionValue.Error(domainSection, "a domain name such as example.com (RFC 6265 §5.2.3)");
        }

        var secure = SectionValue.OneOf(cookie.GetSection("SecurePolicy"), "SameAsRequest", "Always", "None") == 1;
        var sameSite = SectionValue.OneOf(cookie.GetSection("SameSite"), "Unspecified", "None", "Lax", "Strict") switch
        {
            1 => "None",
            2 => "Lax",
            3 => "Strict",
            _ => defaults.SameSite,
        };
        _ = SectionValue.Bool(cookie.GetSection("IsEssential"));
        var maxAge = SectionValue.Duration(cookie.GetSection("MaxAge"));
        var expiration = SectionValue.Duration(cookie.GetSection("Expiration"));
        var httpOnly = SectionValue.Bool(cookie.GetSection("HttpOnly")) ?? defaults.HttpOnly;
        return new AffinityCookieOptions(path, domain, httpOnly, secure, sameSite, maxAge ?? expiration ?? defaults.MaxAge);
    }

    private static bool IsAttributeValue(string value) => value.All(c => c is >= ' ' and <= '~' and not ';');
}
