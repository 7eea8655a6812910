namespace LLRP.Routing;

/// <summary>How a header or query condition compares a request's value with the configured ones.</summary>
internal enum ValueComparison
{
    /// <summary>Presence alone decides; values are not compared.</summary>
    None,

    Exact,

    Prefix,

    Contains,
}
