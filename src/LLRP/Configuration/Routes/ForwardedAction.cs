namespace LLRP.Configuration.Routes;

/// <summary>YARP's <c>ForwardedTransformActions</c>.</summary>
public enum ForwardedAction
{
    /// <summary>The client's field is forwarded as received; the proxy adds nothing.</summary>
    Off,

    /// <summary>The field is replaced by the proxy's value.</summary>
    Set,

    /// <summary>The proxy's value is appended to the client's (a list, RFC 9110 §5.3).</summary>
    Append,

    /// <summary>The field is not forwarded.</summary>
    Remove,
}
