namespace LLRP.Configuration.Routes;

/// <summary>YARP's session affinity policies that LLRP implements.</summary>
public enum AffinityPolicy
{
    /// <summary>The key travels in a cookie the proxy sets.</summary>
    Cookie,

    /// <summary>The key travels in a response header the proxy sets, sent back by the client in a request header of the same name.</summary>
    CustomHeader,
}
