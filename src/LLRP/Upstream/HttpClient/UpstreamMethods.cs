using System.Text;

namespace LLRP.Upstream.HttpClient;

/// <summary>Maps a request method to <see cref="HttpMethod"/>, exactly and case-sensitively (RFC 9110 §9.1): the common ones are shared instances.</summary>
internal static class UpstreamMethods
{
    public static HttpMethod From(ReadOnlySpan<byte> method) => method.Length switch
    {
        3 when method.SequenceEqual("GET"u8) => HttpMethod.Get,
        3 when method.SequenceEqual("PUT"u8) => HttpMethod.Put,
        4 when method.SequenceEqual("POST"u8) => HttpMethod.Post,
        4 when method.SequenceEqual("HEAD"u8) => HttpMethod.Head,
        5 when method.SequenceEqual("PATCH"u8) => HttpMethod.Patch,
        5 when method.SequenceEqual("TRACE"u8) => HttpMethod.Trace,
        6 when method.SequenceEqual("DELETE"u8) => HttpMethod.Delete,
        7 when method.SequenceEqual("OPTIONS"u8) => HttpMethod.Options,
        _ => new HttpMethod(Encoding.ASCII.GetString(method)),
    };

    public static HttpMethod From(string method) => method switch
    {
        "GET" => HttpMethod.Get,
        "PUT" => HttpMethod.Put,
        "POST" => HttpMethod.Post,
        "HEAD" => HttpMethod.Head,
        "PATCH" => HttpMethod.Patch,
        "TRACE" => HttpMethod.Trace,
        "DELETE" => HttpMethod.Delete,
        "OPTIONS" => HttpMethod.Options,
        _ => new HttpMethod(method),
    };
}
