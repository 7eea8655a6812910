using System.Text;
using LLRP.Http1;

namespace LLRP.Fuzz;

/// <summary>What a parser made of a head, as text that can be compared between the whole and the segmented input.</summary>
internal static class HeadDescription
{
    public static string Of(RequestHead head, int consumed)
        => $"{consumed} bytes: {Text(head.Method)} {Text(head.Path)} authority={Text(head.ClientAuthority)} absolute={head.HasAbsoluteTarget} "
            + $"head={head.IsHeadMethod} idempotent={head.IsIdempotent} trailers={head.AcceptsTrailers} continue={head.ExpectsContinue} "
            + $"upgrades={head.RequestedUpgrades} {Common(head)}";

    public static string Of(ResponseHead head, int consumed)
        => $"{consumed} bytes: {head.StatusCode} {Text(head.Reason)} interim={head.IsInterim} {Common(head)}";

    private static string Common(MessageHead head)
    {
        var description = new StringBuilder()
            .Append($"http10={head.IsHttp10} framing={head.Framing} length={head.ContentLength} persistent={head.IsPersistent}");
        var source = head.Source.Span;
        foreach (var field in head.Fields)
        {
            description.Append($" [{Text(field.Name(source))}: {Text(field.Value(source))} {field.Kind}]");
        }

        return description.ToString();
    }

    private static string Text(ReadOnlySpan<byte> bytes) => Encoding.Latin1.GetString(bytes);
}
