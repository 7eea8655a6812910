namespace LLRP.Configuration.Routes;

/// <summary>
/// YARP's <c>X-Forwarded</c> transform: one action for each of <c>X-Forwarded-For</c>, <c>-Proto</c>, <c>-Host</c> and
/// <c>-Prefix</c> (the <c>X-Forwarded</c> value's action, unless its <c>For</c>, <c>Proto</c>, <c>Host</c> or <c>Prefix</c>
/// key gives another), with a field name prefix (<c>HeaderPrefix</c>, <c>X-Forwarded-</c> by default).
/// </summary>
public sealed record ForwardedTransformOptions(ForwardedAction For, ForwardedAction Proto, ForwardedAction Host, ForwardedAction Prefix, string HeaderPrefix);
