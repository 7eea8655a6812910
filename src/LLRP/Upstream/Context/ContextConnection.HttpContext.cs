using Microsoft.AspNetCore.Http;

namespace LLRP.Upstream.Context;

internal sealed partial class ContextConnection
{
    /// <summary>
    /// Fills the request feature from the parsed head as Kestrel would: method, protocol, raw target, unescaped path,
    /// query, and every field (hop-by-hop ones too) in a <see cref="FieldDictionary"/>; an absolute-form target's
    /// authority replaces <c>Host</c> (RFC 9112 §3.2.2).
    /// </summary>
    private void FillRequest()
    {
        var head = Request;
        _requestFeature.Method = MethodName(head.Method);
        _requestFeature.Protocol = head.IsHttp10 ? HttpProtocol.Http10 : HttpProtocol.Http11;
        _target.Set(head.Path);
        _requestFeature.RawTarget = _target.RawTarget;
        _requestFeature.Path = _target.Path;
        _requestFeature.QueryString = _target.Query;

        _requestHeaders.Clear();
        var source = head.Source.Span;
        var fields = head.Fields;
        for (var i = 0; i < fields.Length; i++)
        {
            _requestHeaders.Append(_fields.Name(i, fields[i].Name(source)), _fields.Value(i, fields[i].Value(source)));
        }

        if (head.HasAbsoluteTarget)
        {
            _requestHeaders["Host"] = _authority.Get(head.ClientAuthority);
        }
    }

    private string MethodName(ReadOnlySpan<byte> method) => method.Length switch
    {
        3 when method.SequenceEqual("GET"u8) => HttpMethods.Get,
        3 when method.SequenceEqual("PUT"u8) => HttpMethods.Put,
        4 when method.SequenceEqual("POST"u8) => HttpMethods.Post,
        4 when method.SequenceEqual("HEAD"u8) => HttpMethods.Head,
        5 when method.SequenceEqual("PATCH"u8) => HttpMethods.Patch,
        6 when method.SequenceEqual("DELETE"u8) => HttpMethods.Delete,
        7 when method.SequenceEqual("OPTIONS"u8) => HttpMethods.Options,
        _ => _method.Get(method),
    };
}
