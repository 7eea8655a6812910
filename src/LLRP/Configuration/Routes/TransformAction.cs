namespace LLRP.Configuration.Routes;

/// <summary>What a header or query transform does.</summary>
public enum TransformAction
{
    Set,
    Append,
    Remove,
}
