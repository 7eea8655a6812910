namespace LLRP.Routing;

/// <summary>
/// Which of two routes that both match a request wins, as YARP ranks its endpoints: <c>Order</c>, then the path
/// template's precedence (ASP.NET Core's inbound precedence, segment by segment), then the policies in YARP's order:
/// methods, hosts, headers, query parameters. Equal routes keep their declaration order (a stable sort).
/// </summary>
internal sealed class RoutePrecedence : IComparer<RouteConditions>
{
    public static RoutePrecedence Instance { get; } = new();

    public int Compare(RouteConditions? x, RouteConditions? y)
    {
        ArgumentNullException.ThrowIfNull(x);
        ArgumentNullException.ThrowIfNull(y);
        var result = x.Order.CompareTo(y.Order);
        if (result == 0)
        {
            result = ComparePaths(x.Template.PrecedenceDigits, y.Template.PrecedenceDigits);
        }

        if (result == 0)
        {
            result = (y.Methods.Length > 0).CompareTo(x.Methods.Length > 0);
        }

        if (result == 0)
        {
            result = x.HostSpecificity.CompareTo(y.HostSpecificity);
        }

        if (result == 0)
        {
            result = y.Headers.Length.CompareTo(x.Headers.Length);
        }

        if (result == 0)
        {
            result = y.QueryParameters.Length.CompareTo(x.QueryParameters.Length);
        }

        return result;
    }

    /// <summary>Digit by digit, a missing digit counting 0: <c>/a</c> (1) before <c>/a/b</c> (1.1) before <c>/a/{**r}</c> (1.5) before <c>/{id}</c> (3).</summary>
    private static int ComparePaths(byte[] x, byte[] y)
    {
        for (var i = 0; i < Math.Max(x.Length, y.Length); i++)
        {
            var result = (i < x.Length ? x[i] : 0).CompareTo(i < y.Length ? y[i] : 0);
            if (result != 0)
            {
                return result;
            }
        }

        return 0;
    }
}
