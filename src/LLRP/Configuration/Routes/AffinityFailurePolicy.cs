namespace LLRP.Configuration.Routes;

/// <summary>YARP's affinity failure policies.</summary>
public enum AffinityFailurePolicy
{
    /// <summary>The request goes to another destination, chosen by the cluster's policy, and the key is set anew (YARP's default).</summary>
    Redistribute,

    /// <summary>The request is answered 503.</summary>
    Return503Error,
}
