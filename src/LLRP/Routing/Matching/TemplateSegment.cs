namespace LLRP.Routing;

/// <summary>One segment of a route template: a literal (its UTF-8 bytes, compared ignoring ASCII case) or a <c>{name}</c> parameter.</summary>
internal readonly record struct TemplateSegment(byte[]? Literal, int ParameterIndex)
{
    public bool IsLiteral => Literal is not null;

    /// <summary>ASP.NET Core's inbound precedence digit: a literal (1) ranks before a parameter (3).</summary>
    public byte PrecedenceDigit => IsLiteral ? (byte)1 : (byte)3;
}
