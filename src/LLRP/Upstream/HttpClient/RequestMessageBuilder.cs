using System.Net.Http.Headers;
using System.Text;
using LLRP.Configuration;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Fills an <see cref="HttpRequestMessage"/> from a parsed request head with the rules of <see cref="RequestHeadWriter"/>:
/// end-to-end fields as received, hop-by-hop fields and the client's framing dropped, <c>Host</c> left to HttpClient
/// (the downstream authority) unless preserved, <c>X-Forwarded-*</c> and <c>Via</c> set or appended.
/// Strings and the URI are cached per connection, so a repeated request allocates none. One instance per client connection.
/// </summary>
internal sealed class RequestMessageBuilder(DownstreamEndpoint downstream, ProxyOptions options, string clientAddress, Func<ForwardedContent> contentFactory)
{
    private readonly TargetUriCache _uris = new(downstream);
    private readonly FieldStringCache _fields = new();
    private readonly bool _rewriteForwarded = options.ForwardedHeaders;
    private readonly bool _addVia = options.AddVia;
    private readonly bool _preserveHost = options.PreserveHost;
    private CachedString _authority;

    /// <summary>True when the client is waiting for <c>100 Continue</c> before it sends the body (RFC 9110 §10.1.1).</summary>
    public static bool ExpectsContinue(RequestHead head)
    {
        var source = head.Source.Span;
        foreach (ref readonly var field in head.Fields)
        {
            if (field.Kind == FieldKind.Expect && Ascii.EqualsIgnoreCase(field.Value(source), "100-continue"u8))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Sets method, URI, headers and content (a body, or content fields on an empty one) of an empty message.</summary>
    public void Build(RequestHead head, HttpRequestMessage message)
    {
        message.Method = UpstreamMethods.From(head.Method);
        message.RequestUri = _uris.Get(head.Path);
        if (head.Framing != BodyFraming.None)
        {
            var content = contentFactory();
            content.Headers.ContentLength = head.Framing == BodyFraming.ContentLength ? head.ContentLength : null;
            message.Content = content;
        }

        var headers = message.Headers;
        var source = head.Source.Span;
        var fields = head.Fields;
        for (var i = 0; i < fields.Length; i++)
        {
            if (IsForwardedAsReceived(fields[i].Kind))
            {
                var name = _fields.Name(i, fields[i].Name(source));
                var value = _fields.Value(i, fields[i].Value(source));
                if (!headers.TryAddWithoutValidation(name, value))
                {
                    ContentFor(message).Headers.TryAddWithoutValidation(name, value);
                }
            }
        }

        AddProxyFields(head, headers);
    }

    private void AddProxyFields(RequestHead head, HttpHeaders headers)
    {
        var clientAuthority = head.ClientAuthority;
        var authority = clientAuthority.IsEmpty ? null : _authority.Get(clientAuthority);
        if (_preserveHost && authority is not null)
        {
            headers.TryAddWithoutValidation("Host", authority);
        }

        if (head.AcceptsTrailers)
        {
            headers.TryAddWithoutValidation("TE", "trailers");
        }

        if (_rewriteForwarded)
        {
            headers.TryAddWithoutValidation("X-Forwarded-For", JoinList(head, FieldKind.XForwardedFor, clientAddress));
            headers.TryAddWithoutValidation("X-Forwarded-Proto", "http");
            if (authority is not null)
            {
                headers.TryAddWithoutValidation("X-Forwarded-Host", authority);
            }
        }

        if (_addVia)
        {
            headers.TryAddWithoutValidation("Via", JoinList(head, FieldKind.Via, head.IsHttp10 ? "1.0 llrp" : "1.1 llrp"));
        }
    }

    /// <summary>A bodiless request carrying content fields (<c>Content-Type</c>…) gets an empty body to hold them: HttpClient sends <c>Content-Length: 0</c>.</summary>
    private HttpContent ContentFor(HttpRequestMessage message)
    {
        if (message.Content is null)
        {
            var content = contentFactory();
            content.Headers.ContentLength = 0;
            message.Content = content;
        }

        return message.Content;
    }

    private bool IsForwardedAsReceived(FieldKind kind) => kind switch
    {
        FieldKind.Other or FieldKind.Expect or FieldKind.Trailer => true,
        FieldKind.Via => !_addVia,
        FieldKind.XForwardedFor or FieldKind.XForwardedProto or FieldKind.XForwardedHost => !_rewriteForwarded,
        _ => false,
    };

    /// <summary>Every received value of a list field, in order, then <paramref name="appended"/>, as one value.</summary>
    private static string JoinList(RequestHead head, FieldKind kind, string appended)
    {
        var source = head.Source.Span;
        StringBuilder? joined = null;
        foreach (ref readonly var field in head.Fields)
        {
            if (field.Kind == kind && field.ValueLength > 0)
            {
                joined ??= new StringBuilder();
                joined.Append(Encoding.Latin1.GetString(field.Value(source))).Append(", ");
            }
        }

        return joined is null ? appended : joined.Append(appended).ToString();
    }
}
