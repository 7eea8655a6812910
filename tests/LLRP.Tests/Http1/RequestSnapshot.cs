using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>Everything <see cref="RequestHeadParser"/> reports about one request, as a value that can be compared across splits.</summary>
internal sealed record RequestSnapshot(
    int Consumed,
    int SourceLength,
    string Method,
    string Path,
    string ClientAuthority,
    bool HasAbsoluteTarget,
    bool IsHttp10,
    bool IsHeadMethod,
    bool IsIdempotent,
    BodyFraming Framing,
    long ContentLength,
    bool IsPersistent,
    bool AcceptsTrailers,
    string Fields)
{
    public static RequestSnapshot From(RequestHead head, int consumed)
    {
        var source = head.Source.Span;
        var fields = new List<string>();
        foreach (var field in head.Fields)
        {
            fields.Add($"{Text.Of(field.Name(source))}: {Text.Of(field.Value(source))} [{field.Kind}]");
        }

        return new RequestSnapshot(
            consumed,
            head.Source.Length,
            Text.Of(head.Method),
            Text.Of(head.Path),
            Text.Of(head.ClientAuthority),
            head.HasAbsoluteTarget,
            head.IsHttp10,
            head.IsHeadMethod,
            head.IsIdempotent,
            head.Framing,
            head.ContentLength,
            head.IsPersistent,
            head.AcceptsTrailers,
            string.Join("\n", fields));
    }
}
