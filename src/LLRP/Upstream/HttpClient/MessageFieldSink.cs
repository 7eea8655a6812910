using System.Text;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Puts the fields the <see cref="RequestRewriter"/> gives into an <see cref="HttpRequestMessage"/>: request fields into
/// its headers, content fields (<c>Content-Type</c>…) into its content, an empty one if the request has no body.
/// A <c>Host</c> equal to the URI's authority is left to HttpClient, which sends exactly that. Strings are cached by
/// position, so a repeated request allocates none.
/// </summary>
internal struct MessageFieldSink(HttpRequestMessage message, FieldStringCache strings, byte[] uriAuthority, Func<HttpContent> emptyContent) : IFieldSink
{
    private int _index;

    public void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (_index == 0 && value.SequenceEqual(uriAuthority) && Ascii.EqualsIgnoreCase(name, "Host"u8))
        {
            _index++;
            return;
        }

        var nameString = strings.Name(_index, name);
        var valueString = strings.Value(_index, value);
        _index++;
        if (!message.Headers.TryAddWithoutValidation(nameString, valueString))
        {
            (message.Content ??= emptyContent()).Headers.TryAddWithoutValidation(nameString, valueString);
        }
    }
}
