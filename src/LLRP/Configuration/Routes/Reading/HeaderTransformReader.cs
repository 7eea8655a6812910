using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// <c>RequestHeader</c>/<c>ResponseHeader</c> with <c>Set</c> or <c>Append</c>, and <c>RequestHeaderRemove</c>/
/// <c>ResponseHeaderRemove</c>; response transforms with <c>When</c> (Success unless given, as YARP).
/// </summary>
internal static class HeaderTransformReader
{
    /// <param name="name">The transform's name key (its value is the field name).</param>
    /// <param name="request">A request transform: <see cref="HeaderTransformOptions.When"/> is then <see cref="ResponseCondition.Always"/>.</param>
    public static HeaderTransformOptions Read(IConfigurationSection transform, IConfigurationSection name, bool request)
    {
        var field = SectionValue.Required(name, "a header field name (a token)");
        if (!FieldSyntax.IsToken(field))
        {
            throw SectionValue.Error(name, "a header field name (a token, RFC 9110 §5.1)");
        }

        if (FieldSyntax.OwnedBy(field, request) is { } owner)
        {
            throw SectionValue.Error(name, $"a field the proxy does not own: {field} is {owner}");
        }

        var remove = name.Key.EndsWith("Remove", StringComparison.OrdinalIgnoreCase);
        var (action, value) = remove ? (TransformAction.Remove, "") : SetOrAppend(transform);
        if (!FieldSyntax.IsFieldValue(value))
        {
            throw SectionValue.Error(transform.GetSection(action.ToString()), "a field value: visible ASCII, spaces and tabs, without CR, LF, NUL or other control characters (RFC 9110 §5.5)");
        }

        var when = request ? ResponseCondition.Always : SectionValue.Enum<ResponseCondition>(transform.GetSection("When")) ?? ResponseCondition.Success;
        return new HeaderTransformOptions(action, field, value, when);
    }

    /// <summary>The action and value of a transform that takes exactly one of <c>Set</c> and <c>Append</c>.</summary>
    public static (TransformAction Action, string Value) SetOrAppend(IConfigurationSection transform)
    {
        var set = SectionValue.String(transform.GetSection("Set"));
        var append = SectionValue.String(transform.GetSection("Append"));
        return (set, append) switch
        {
            (not null, null) => (TransformAction.Set, set),
            (null, not null) => (TransformAction.Append, append),
            _ => throw SectionValue.Error(transform, "exactly one of Set and Append, with the value"),
        };
    }
}
