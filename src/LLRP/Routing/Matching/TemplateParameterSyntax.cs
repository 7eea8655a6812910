namespace LLRP.Routing;

/// <summary>
/// The one parameter form a template segment may take: the whole segment, <c>{name}</c>, <c>{*name}</c> or
/// <c>{**name}</c>. Anything else ASP.NET Core's syntax allows there is named in the refusal.
/// </summary>
internal static class TemplateParameterSyntax
{
    /// <summary>Null when <paramref name="segment"/> is a supported parameter; else what it uses that is not supported.</summary>
    public static string? Check(ReadOnlySpan<char> segment, out string name, out bool isCatchAll)
    {
        name = "";
        isCatchAll = false;
        if (segment.StartsWith("{{") || segment.EndsWith("}}"))
        {
            return $"an escaped brace in '{segment}'";
        }

        if (segment.Length < 2 || segment[0] != '{' || segment[^1] != '}' || segment[1..^1].IndexOfAny('{', '}') >= 0)
        {
            return $"the complex segment '{segment}' (a parameter must be a whole segment)";
        }

        var inner = segment[1..^1];
        if (inner.StartsWith('*'))
        {
            isCatchAll = true;
            inner = inner.StartsWith("**") ? inner[2..] : inner[1..];
        }

        if (inner.Contains(':'))
        {
            return $"the parameter constraint in '{segment}'";
        }

        if (inner.Contains('='))
        {
            return $"the default value in '{segment}'";
        }

        if (inner.EndsWith('?'))
        {
            return $"the optional parameter '{segment}'";
        }

        if (inner.IsEmpty || inner.IndexOfAny("*/?") >= 0)
        {
            return $"the parameter name in '{segment}'";
        }

        name = inner.ToString();
        return null;
    }
}
