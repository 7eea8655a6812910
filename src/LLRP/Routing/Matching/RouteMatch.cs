namespace LLRP.Routing;

/// <summary>The route a request takes, and what its path template captured, as ranges into the request's path.</summary>
internal readonly struct RouteMatch<TValue>(Route<TValue> route, PathCaptures captures)
{
    private readonly PathCaptures _captures = captures;

    public Route<TValue> Route => route;

    public TValue Value => route.Value;

    /// <summary>
    /// The range of the request path that parameter <paramref name="parameterIndex"/> captured (see
    /// <see cref="RouteTemplate.IndexOf"/>): one segment, or for a catch-all the rest of the path, possibly empty,
    /// percent-encoded as received.
    /// </summary>
    public Range Capture(int parameterIndex)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)parameterIndex, (uint)route.Template.ParameterNames.Length, nameof(parameterIndex));
        return _captures[parameterIndex];
    }

    /// <summary>The capture of the parameter named <paramref name="name"/> (ignoring case); false when the template has no such parameter.</summary>
    public bool TryGetCapture(string name, out Range range)
    {
        var index = route.Template.IndexOf(name);
        range = index >= 0 ? _captures[index] : default;
        return index >= 0;
    }
}
