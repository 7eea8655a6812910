using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Puts the fields the <see cref="RequestRewriter"/> gives into an <see cref="HttpRequestMessage"/>: request fields into
/// its headers, content fields (<c>Content-Type</c>…) into its content, an empty one if the request has no body.
/// Strings are cached by position, so a repeated request allocates none.
/// </summary>
internal struct MessageFieldSink(HttpRequestMessage message, FieldStringCache strings, Func<HttpContent> emptyContent) : IFieldSink
{
    private int _index;

    public void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var nameString = strings.Name(_index, name);
        var valueString = strings.Value(_index, value);
        _index++;
        if (!message.Headers.TryAddWithoutValidation(nameString, valueString))
        {
            (message.Content ??= emptyContent()).Headers.TryAddWithoutValidation(nameString, valueString);
        }
    }
}
