using System.Text;
using LLRP.Configuration.Routes;

namespace LLRP.Routing;

/// <summary>A route's <c>Match</c>, compiled: what a request must have to take the route, and how specific that is.</summary>
internal sealed class RouteConditions
{
    /// <exception cref="ArgumentException">The match uses something not supported; the message names the route and what.</exception>
    public RouteConditions(RouteOptions route)
    {
        try
        {
            var match = route.Match;
            Order = route.Order;
            Template = RouteTemplate.Parse(match.Path);
            Methods = [.. match.Methods.Select(ParseMethod)];
            Hosts = [.. match.Hosts.Select(HostPattern.Parse)];
            Headers = [.. match.Headers.Select(h => new HeaderCondition(h))];
            QueryParameters = [.. match.QueryParameters.Select(q => new QueryCondition(q))];
        }
        catch (ArgumentException e)
        {
            throw new ArgumentException($"route '{route.Id}': {e.Message}", nameof(route), e);
        }
    }

    public int Order { get; }

    public RouteTemplate Template { get; }

    public byte[][] Methods { get; }

    public HostPattern[] Hosts { get; }

    public HeaderCondition[] Headers { get; }

    public QueryCondition[] QueryParameters { get; }

    /// <summary>The most specific of the hosts (<see cref="HostPattern.Specificity"/>); 6, any host, when there are none.</summary>
    public int HostSpecificity => Hosts.Length == 0 ? 6 : Hosts.Min(h => h.Specificity);

    /// <summary>The names the hosts require when every host is an exact name; null when some host matches other names too.</summary>
    public IReadOnlyList<byte[]>? ExactHostNames
        => Hosts.Length > 0 && Hosts.All(h => h.ExactName is not null) ? [.. Hosts.Select(h => h.ExactName!)] : null;

    public bool Matches<TRequest>(scoped in TRequest request, scoped in RequestPath path, scoped in RequestAuthority authority, ref PathCaptures captures)
        where TRequest : IRoutableRequest, allows ref struct
    {
        if (Methods.Length > 0 && !MatchesMethod(request.Method))
        {
            return false;
        }

        if (Hosts.Length > 0 && !MatchesHost(authority))
        {
            return false;
        }

        if (!Template.Match(path, ref captures))
        {
            return false;
        }

        foreach (var header in Headers)
        {
            if (!header.Matches(request))
            {
                return false;
            }
        }

        foreach (var query in QueryParameters)
        {
            if (!query.Matches(request.Query))
            {
                return false;
            }
        }

        return true;
    }

    private bool MatchesMethod(ReadOnlySpan<byte> method)
    {
        foreach (var allowed in Methods)
        {
            if (method.SequenceEqual(allowed))
            {
                return true;
            }
        }

        return false;
    }

    private bool MatchesHost(scoped in RequestAuthority authority)
    {
        foreach (var host in Hosts)
        {
            if (host.Matches(authority))
            {
                return true;
            }
        }

        return false;
    }

    private static byte[] ParseMethod(string method)
        => method.Length > 0 && method.All(c => char.IsAsciiLetterOrDigit(c) || "!#$%&'*+-.^_`|~".Contains(c))
            ? Encoding.ASCII.GetBytes(method)
            : throw new ArgumentException($"method '{method}' is not a token (RFC 9110 §9.1)", nameof(method));
}
