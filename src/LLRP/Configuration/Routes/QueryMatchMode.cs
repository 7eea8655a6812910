namespace LLRP.Configuration.Routes;

/// <summary>YARP's <c>QueryParameterMatchMode</c>, with its meanings; the parameter must appear once (present twice, it does not match).</summary>
public enum QueryMatchMode
{
    /// <summary>The decoded value equals one of the values.</summary>
    Exact,

    /// <summary>The decoded value contains one of the values.</summary>
    Contains,

    /// <summary>The parameter is present and its decoded value contains none of the values.</summary>
    NotContains,

    /// <summary>The decoded value starts with one of the values.</summary>
    Prefix,

    /// <summary>The parameter is present, with any value.</summary>
    Exists,
}
