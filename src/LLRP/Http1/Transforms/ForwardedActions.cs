using LLRP.Configuration.Routes;

namespace LLRP.Http1.Transforms;

/// <summary>What the forwarding rules do with each <c>X-Forwarded-*</c> field.</summary>
internal readonly record struct ForwardedActions(ForwardedAction For, ForwardedAction Proto, ForwardedAction Host, ForwardedAction Prefix)
{
    /// <summary><c>forwardedHeaders=true</c>, as YARP: <c>For</c> appended, <c>Proto</c> and <c>Host</c> set, <c>Prefix</c> as received.</summary>
    public static ForwardedActions Default { get; } = new(ForwardedAction.Append, ForwardedAction.Set, ForwardedAction.Set, ForwardedAction.Off);

    /// <summary><c>forwardedHeaders=false</c>: every field as received.</summary>
    public static ForwardedActions Off { get; } = new(ForwardedAction.Off, ForwardedAction.Off, ForwardedAction.Off, ForwardedAction.Off);
}
