using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// YARP's <c>X-Forwarded</c> transform: its value is the action of each of <c>For</c>, <c>Proto</c>, <c>Host</c> and
/// <c>Prefix</c> (Set, Append, Remove, Off), each of which its own key may override; <c>HeaderPrefix</c> names the fields
/// (<c>X-Forwarded-</c> unless given).
/// </summary>
internal static class ForwardedTransformReader
{
    public const string DefaultHeaderPrefix = "X-Forwarded-";

    public static ForwardedTransformOptions Read(IConfigurationSection transform, IConfigurationSection name)
    {
        var all = Action(name) ?? throw SectionValue.Error(name, "Set, Append, Remove or Off");
        var prefixSection = transform.GetSection("HeaderPrefix");
        var prefix = SectionValue.String(prefixSection) ?? DefaultHeaderPrefix;
        if (!FieldSyntax.IsToken(prefix))
        {
            throw SectionValue.Error(prefixSection, "a field name prefix (token characters), such as X-Forwarded-");
        }

        return new ForwardedTransformOptions(
            Action(transform.GetSection("For")) ?? all,
            Action(transform.GetSection("Proto")) ?? all,
            Action(transform.GetSection("Host")) ?? all,
            Action(transform.GetSection("Prefix")) ?? all,
            prefix);
    }

    private static ForwardedAction? Action(IConfigurationSection section)
    {
        var value = SectionValue.String(section);
        if (value is not null && value.Contains(','))
        {
            throw SectionValue.Error(section, "Set, Append, Remove or Off (YARP 1.0's list form such as 'For,Proto' is not supported: give the action, and For/Proto/Host/Prefix keys to differ)");
        }

        return SectionValue.Enum<ForwardedAction>(section);
    }
}
