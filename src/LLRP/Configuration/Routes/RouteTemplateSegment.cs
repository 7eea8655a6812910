namespace LLRP.Configuration.Routes;

/// <summary>One segment of a route template as written: a literal, a <c>{name}</c> parameter, or the final catch-all.</summary>
/// <param name="Text">The literal, or the parameter's name without braces or stars.</param>
internal sealed record RouteTemplateSegment(string Text, bool IsParameter, bool IsCatchAll);
