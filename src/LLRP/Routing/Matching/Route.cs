using LLRP.Configuration.Routes;

namespace LLRP.Routing;

/// <summary>A route of a <see cref="RouteTable{TValue}"/>: its options, its compiled match, and what the table's owner attached to it.</summary>
internal sealed class Route<TValue>(RouteOptions options, RouteConditions conditions, TValue value)
{
    public string Id => options.Id;

    public RouteOptions Options => options;

    /// <summary>The path template; a capture's index is its parameter's index in <see cref="RouteTemplate.ParameterNames"/>.</summary>
    public RouteTemplate Template => conditions.Template;

    /// <summary>What the table's owner attached to the route (its cluster, its compiled transforms).</summary>
    public TValue Value => value;

    public RouteConditions Conditions => conditions;
}
