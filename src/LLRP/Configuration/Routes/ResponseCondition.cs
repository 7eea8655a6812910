namespace LLRP.Configuration.Routes;

/// <summary>YARP's <c>When</c> of response transforms.</summary>
public enum ResponseCondition
{
    /// <summary>Responses with a status below 400.</summary>
    Success,

    /// <summary>Every response.</summary>
    Always,

    /// <summary>Responses with a status of 400 or above.</summary>
    Failure,
}
