namespace LLRP.Configuration.Routes;

/// <summary>YARP's path transforms.</summary>
public enum PathTransformKind
{
    /// <summary><c>PathPrefix</c>: the value is put before the path.</summary>
    Prefix,

    /// <summary><c>PathRemovePrefix</c>: the value is removed from the start of the path, when the path starts with it as whole segments.</summary>
    RemovePrefix,

    /// <summary><c>PathSet</c>: the path becomes the value.</summary>
    Set,

    /// <summary><c>PathPattern</c>: the path becomes the value with each <c>{name}</c> replaced by what the route captured.</summary>
    Pattern,
}
