using System.Net.Http.Headers;
using System.Text;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;

namespace LLRP.Upstream.Context;

internal sealed partial class ContextConnection
{
    /// <summary>
    /// Builds the upstream request from <c>HttpContext.Request</c> alone, with the httpclient mode's rules: fields as
    /// received minus hop-by-hop ones (and those <c>Connection</c> names), <c>Host</c> and <c>Content-Length</c>;
    /// <c>X-Forwarded-*</c> and <c>Via</c> from the context; the body streamed from <c>HttpRequest.Body</c>.
    /// </summary>
    private HttpRequestMessage CopyRequest(HttpContext context)
    {
        var request = context.Request;
        var message = NextMessage();
        message.Method = UpstreamMethods.From(request.Method);
        message.RequestUri = _uris.Get(context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget);
        var headers = request.Headers;
        if (request.ContentLength is not null || !StringValues.IsNullOrEmpty(headers.TransferEncoding))
        {
            var content = (StreamBodyContent)CreateContent();
            content.Source = request.Body;
            content.Headers.ContentLength = request.ContentLength;
            message.Content = content;
        }

        var connection = headers.Connection;
        var namesFields = connection.Count > 0 && HopByHopNames.NamesFields(connection);
        foreach (var (name, values) in headers)
        {
            if (!IsForwardedAsReceived(name) || (namesFields && HopByHopNames.IsNamedBy(connection, name)))
            {
                continue;
            }

            foreach (var value in values)
            {
                if (value is not null && !message.Headers.TryAddWithoutValidation(name, value))
                {
                    ContentFor(message).Headers.TryAddWithoutValidation(name, value);
                }
            }
        }

        AddProxyFields(context, message.Headers);
        return message;
    }

    private void AddProxyFields(HttpContext context, HttpRequestHeaders headers)
    {
        var request = context.Request;
        var authority = request.Host.HasValue ? request.Host.Value : null;
        if (Options.PreserveHost && authority is not null)
        {
            headers.TryAddWithoutValidation("Host", authority);
        }

        if (ListsToken(request.Headers.TE, "trailers"))
        {
            headers.TryAddWithoutValidation("TE", "trailers");
        }

        if (Options.ForwardedHeaders)
        {
            headers.TryAddWithoutValidation("X-Forwarded-For", JoinList(request.Headers["X-Forwarded-For"], RemoteAddress(context)));
            headers.TryAddWithoutValidation("X-Forwarded-Proto", request.Scheme);
            if (authority is not null)
            {
                headers.TryAddWithoutValidation("X-Forwarded-Host", authority);
            }
        }

        if (Options.AddVia)
        {
            headers.TryAddWithoutValidation("Via", JoinList(request.Headers.Via, HttpProtocol.IsHttp10(request.Protocol) ? "1.0 llrp" : "1.1 llrp"));
        }
    }

    private bool IsForwardedAsReceived(string name)
    {
        if (HopByHopNames.IsHopByHop(name) || HopByHopNames.IsContentLength(name) || Is(name, "Host"))
        {
            return false;
        }

        if (Is(name, "Via"))
        {
            return !Options.AddVia;
        }

        return !Options.ForwardedHeaders || !(Is(name, "X-Forwarded-For") || Is(name, "X-Forwarded-Proto") || Is(name, "X-Forwarded-Host"));
    }

    private HttpContent ContentFor(HttpRequestMessage message)
    {
        if (message.Content is null)
        {
            var content = (StreamBodyContent)CreateContent();
            content.Source = Stream.Null;
            content.Headers.ContentLength = 0;
            message.Content = content;
        }

        return message.Content;
    }

    /// <summary><c>HttpContext.Connection.RemoteIpAddress</c> as text, IPv4-mapped addresses as IPv4; made once per address.</summary>
    private string RemoteAddress(HttpContext context)
    {
        var address = context.Connection.RemoteIpAddress;
        if (address is not null && !ReferenceEquals(address, _lastRemoteAddress))
        {
            _lastRemoteAddress = address;
            _lastRemoteAddressString = (address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address).ToString();
        }

        return _lastRemoteAddressString;
    }

    /// <summary>Every non-empty value received, in order, then <paramref name="appended"/>, as one value.</summary>
    private static string JoinList(StringValues values, string appended)
    {
        StringBuilder? joined = null;
        foreach (var value in values)
        {
            if (!string.IsNullOrEmpty(value))
            {
                (joined ??= new StringBuilder()).Append(value).Append(", ");
            }
        }

        return joined is null ? appended : joined.Append(appended).ToString();
    }

    private static bool ListsToken(StringValues values, string token)
    {
        foreach (var value in values)
        {
            foreach (var range in value.AsSpan().Split(','))
            {
                var element = value.AsSpan()[range];
                var parameters = element.IndexOf(';');
                if ((parameters < 0 ? element : element[..parameters]).Trim(" \t").Equals(token, StringComparison.OrdinalIgnoreCase))
                {
                    return true;
                }
            }
        }

        return false;
    }

    private static bool Is(string name, string known) => string.Equals(name, known, StringComparison.OrdinalIgnoreCase);
}
