using LLRP.Http1;
using Microsoft.AspNetCore.Http;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Adds the fields it is given to an <see cref="IHeaderDictionary"/> (an HTTP/2 response's), values byte for byte
/// (Latin-1). Strings are cached by position, so a response repeating the previous one's fields allocates none.
/// </summary>
internal struct HeaderDictionarySink(IHeaderDictionary headers, FieldStringCache strings) : IFieldSink
{
    private int _index;

    public void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        headers.Append(strings.Name(_index, name), strings.Value(_index, value));
        _index++;
    }
}
