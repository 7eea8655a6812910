namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Maps a request method to <see cref="HttpMethod"/>, exactly and case-sensitively (RFC 9110 §9.1): the common ones are
/// HttpClient's shared instances, any other is made once and kept while the connection repeats it. A mutable struct
/// held in a field of its connection.
/// </summary>
internal struct MethodCache
{
    private CachedString _name;
    private HttpMethod? _other;

    public HttpMethod Get(ReadOnlySpan<byte> method) => method.Length switch
    {
        3 when method.SequenceEqual("GET"u8) => HttpMethod.Get,
        3 when method.SequenceEqual("PUT"u8) => HttpMethod.Put,
        4 when method.SequenceEqual("POST"u8) => HttpMethod.Post,
        4 when method.SequenceEqual("HEAD"u8) => HttpMethod.Head,
        5 when method.SequenceEqual("PATCH"u8) => HttpMethod.Patch,
        5 when method.SequenceEqual("TRACE"u8) => HttpMethod.Trace,
        6 when method.SequenceEqual("DELETE"u8) => HttpMethod.Delete,
        7 when method.SequenceEqual("OPTIONS"u8) => HttpMethod.Options,
        _ => Other(method),
    };

    private HttpMethod Other(ReadOnlySpan<byte> method)
    {
        var name = _name.Get(method);
        if (_other is null || !ReferenceEquals(_other.Method, name))
        {
            _other = new HttpMethod(name);
        }

        return _other;
    }
}
