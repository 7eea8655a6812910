namespace LLRP.Configuration.Routes;

/// <summary>
/// YARP's <c>HeaderMatchMode</c>, with the meanings its <c>HeaderMatcherPolicy</c> gives them. A field's lines are all
/// looked at; a field is empty when absent or when its only line is empty, and only <see cref="NotContains"/> and
/// <see cref="NotExists"/> match an empty field.
/// </summary>
public enum HeaderMatchMode
{
    /// <summary>
    /// Some member of the field's lines, split at ',' (at ';' for <c>Cookie</c>; not inside a quoted string) with one
    /// pair of quotes stripped, equals one of the values.
    /// </summary>
    ExactHeader,

    /// <summary>Some value of the field, split as for <see cref="ExactHeader"/>, starts with one of the values.</summary>
    HeaderPrefix,

    /// <summary>Some line of the field contains one of the values.</summary>
    Contains,

    /// <summary>No line of the field contains any of the values; an absent or empty field matches (YARP 2.1 and later).</summary>
    NotContains,

    /// <summary>The field is present with a non-empty value.</summary>
    Exists,

    /// <summary>The field is absent.</summary>
    NotExists,
}
