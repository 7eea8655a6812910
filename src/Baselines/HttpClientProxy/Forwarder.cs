using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Baselines.HttpClientProxy;

/// <summary>
/// The terminal middleware: copies <c>HttpContext.Request</c> into an <see cref="HttpRequestMessage"/> (method, raw target
/// under the downstream's base URI, fields minus hop-by-hop ones and <c>Host</c>, body streamed), sends it with one shared
/// invoker, then copies status, fields (minus hop-by-hop ones) and the streamed body back into <c>HttpContext.Response</c>.
/// A downstream failure is a 502 (504 on timeout) before the response started, an abort after. With
/// <paramref name="acceptAnyCertificate"/> an https:// downstream's certificate is not checked (a self-signed benchmark origin).
/// </summary>
internal sealed class Forwarder(Uri downstream, bool acceptAnyCertificate)
{
    private static readonly UriCreationOptions Verbatim = new() { DangerousDisablePathAndQueryCanonicalization = true };

    private readonly string _base = downstream.GetLeftPart(UriPartial.Authority) + downstream.AbsolutePath.TrimEnd('/');

    private readonly HttpMessageInvoker _invoker = new(new SocketsHttpHandler
    {
        UseProxy = false,
        AllowAutoRedirect = false,
        AutomaticDecompression = DecompressionMethods.None,
        UseCookies = false,
        ActivityHeadersPropagator = null,
        ConnectTimeout = TimeSpan.FromSeconds(10),
        RequestHeaderEncodingSelector = static (_, _) => Encoding.Latin1,
        SslOptions = { RemoteCertificateValidationCallback = acceptAnyCertificate ? static (_, _, _, _) => true : null },
    });

    public async Task ForwardAsync(HttpContext context)
    {
        using var request = CopyRequest(context);
        HttpResponseMessage response;
        try
        {
            response = await _invoker.SendAsync(request, context.RequestAborted);
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            return;
        }
        catch (Exception e) when (e is HttpRequestException or OperationCanceledException)
        {
            context.Response.StatusCode = e is OperationCanceledException ? StatusCodes.Status504GatewayTimeout : StatusCodes.Status502BadGateway;
            return;
        }

        using (response)
        {
            await CopyResponseAsync(response, context);
        }
    }

    private HttpRequestMessage CopyRequest(HttpContext context)
    {
        var request = context.Request;
        var target = context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget;
        var message = new HttpRequestMessage(MethodOf(request.Method), new Uri(_base + target, in Verbatim))
        {
            Version = HttpVersion.Version11,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };

        if (request.ContentLength is not null || request.Headers.TransferEncoding.Count > 0)
        {
            message.Content = new StreamContent(request.Body);
        }

        var connection = HopByHopFields.NamedBy(request.Headers.Connection);
        foreach (var (name, values) in request.Headers)
        {
            if (HopByHopFields.Contains(name, connection) || string.Equals(name, "Host", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            if (!message.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values))
            {
                message.Content?.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values);
            }
        }

        return message;
    }

    private static async Task CopyResponseAsync(HttpResponseMessage upstream, HttpContext context)
    {
        var response = context.Response;
        response.StatusCode = (int)upstream.StatusCode;
        context.Features.GetRequiredFeature<IHttpResponseFeature>().ReasonPhrase = upstream.ReasonPhrase;
        var connection = upstream.Headers.NonValidated.TryGetValues("Connection", out var options) ? HopByHopFields.NamedBy(options) : null;
        CopyFields(upstream.Headers.NonValidated, response.Headers, connection);
        CopyFields(upstream.Content.Headers.NonValidated, response.Headers, connection);

        try
        {
            await using var body = await upstream.Content.ReadAsStreamAsync(context.RequestAborted);
            await body.CopyToAsync(response.Body, context.RequestAborted);
        }
        catch (Exception e) when (e is IOException or HttpRequestException or OperationCanceledException)
        {
            context.Abort();
        }
    }

    private static void CopyFields(HttpHeadersNonValidated fields, IHeaderDictionary headers, string[]? connection)
    {
        foreach (var (name, values) in fields)
        {
            if (!HopByHopFields.Contains(name, connection))
            {
                foreach (var value in values)
                {
                    headers.Append(name, value);
                }
            }
        }
    }

    /// <summary>The method, exactly (methods are case-sensitive, RFC 9110 §9.1); the common ones are shared instances.</summary>
    private static HttpMethod MethodOf(string method) => method switch
    {
        "GET" => HttpMethod.Get,
        "POST" => HttpMethod.Post,
        "PUT" => HttpMethod.Put,
        "HEAD" => HttpMethod.Head,
        "DELETE" => HttpMethod.Delete,
        "PATCH" => HttpMethod.Patch,
        "OPTIONS" => HttpMethod.Options,
        "TRACE" => HttpMethod.Trace,
        _ => new HttpMethod(method),
    };
}
