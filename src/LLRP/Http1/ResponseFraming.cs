namespace LLRP.Http1;

/// <summary>
/// How a response is framed for the client (RFC 9112 §6.3), decided once for every mode: no body for HEAD, 1xx, 204
/// and 304; the destination's Content-Length when it sent one; otherwise chunked for an HTTP/1.1 client, and
/// close-delimited for an HTTP/1.0 one.
/// </summary>
/// <param name="Body">None, ContentLength, Chunked or CloseDelimited: how the client receives the body.</param>
/// <param name="Close">The client connection ends after this response, and the response says so.</param>
/// <param name="Http10KeepAlive">The client is HTTP/1.0 and its connection persists, so the response says so.</param>
internal readonly record struct ResponseFraming(BodyFraming Body, bool Close, bool Http10KeepAlive)
{
    /// <param name="response">The destination's response head, its framing as received.</param>
    /// <param name="isHeadRequest">The request was HEAD.</param>
    /// <param name="isHttp10Client">The client spoke HTTP/1.0.</param>
    /// <param name="persistent">The client connection may carry another request after this one.</param>
    public static ResponseFraming For(ResponseHead response, bool isHeadRequest, bool isHttp10Client, bool persistent)
    {
        var body = IsBodiless(response.StatusCode, isHeadRequest) ? BodyFraming.None
            : response.Framing == BodyFraming.ContentLength ? BodyFraming.ContentLength
            : isHttp10Client ? BodyFraming.CloseDelimited
            : BodyFraming.Chunked;
        var close = !persistent || body == BodyFraming.CloseDelimited;
        return new ResponseFraming(body, close, isHttp10Client && !close);
    }

    /// <summary>RFC 9110 §9.3.2, §15.2, §15.3.5, §15.4.5: these responses end with their head, whatever their fields say.</summary>
    public static bool IsBodiless(int statusCode, bool isHeadRequest) => isHeadRequest || statusCode is < 200 or 204 or 304;
}
