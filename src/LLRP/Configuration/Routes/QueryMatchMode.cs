namespace LLRP.Configuration.Routes;

/// <summary>
/// YARP's <c>QueryParameterMatchMode</c>, with the meanings its <c>QueryParameterMatcherPolicy</c> gives them. Every
/// occurrence of the parameter is looked at (YARP 1.x refused a parameter present twice; 2.x does not); the parameter
/// is empty when absent or when its only occurrence has an empty value, and only <see cref="NotContains"/> matches it then.
/// </summary>
public enum QueryMatchMode
{
    /// <summary>Some decoded value equals one of the values.</summary>
    Exact,

    /// <summary>Some decoded value contains one of the values.</summary>
    Contains,

    /// <summary>No decoded value contains any of the values; an absent or empty parameter matches.</summary>
    NotContains,

    /// <summary>Some decoded value starts with one of the values.</summary>
    Prefix,

    /// <summary>The parameter is present and not empty.</summary>
    Exists,
}
