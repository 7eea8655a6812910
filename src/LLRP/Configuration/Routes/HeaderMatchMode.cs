namespace LLRP.Configuration.Routes;

/// <summary>YARP's <c>HeaderMatchMode</c>, with its meanings. A field's lines are all looked at.</summary>
public enum HeaderMatchMode
{
    /// <summary>Some value of the field, split at ',' and ';' with one pair of quotes stripped, equals one of the values.</summary>
    ExactHeader,

    /// <summary>Some value of the field, split as for <see cref="ExactHeader"/>, starts with one of the values.</summary>
    HeaderPrefix,

    /// <summary>Some line of the field contains one of the values.</summary>
    Contains,

    /// <summary>The field is present with a non-empty value, and no line of it contains any of the values.</summary>
    NotContains,

    /// <summary>The field is present with a non-empty value.</summary>
    Exists,

    /// <summary>The field is absent.</summary>
    NotExists,
}
