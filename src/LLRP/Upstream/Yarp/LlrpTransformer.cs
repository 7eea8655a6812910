using LLRP.Http1;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.LightContext;
using Microsoft.AspNetCore.Http;
using Yarp.ReverseProxy.Forwarder;

namespace LLRP.Upstream.Yarp;

/// <summary>
/// The transformer LLRP gives YARP's forwarder. Requests: YARP copies the light context's fields (already the ones to
/// forward) itself, <c>TE: trailers</c> is put back after YARP's copy drops it, and the URI is the raw target byte for byte. Responses: every field is copied and the head is
/// validated with raw mode's rules before YARP goes on; one it would refuse is not forwarded (a <c>101</c> only answers
/// an upgrade request, to a tunnelled protocol). One per client connection.
/// </summary>
internal sealed class LlrpTransformer(LightHttpContext light, TargetUriCache uris, UpgradeProtocols upgrades, ClientUpgradeFeature upgrade) : HttpTransformer
{
    /// <summary>The destination sent a response that raw mode would refuse.</summary>
    public bool InvalidResponse { get; private set; }

    /// <summary>The response head was copied into the light context, so what YARP reports after it concerns the bodies.</summary>
    public bool ResponseCopied { get; private set; }

    public void Reset() => (InvalidResponse, ResponseCopied) = (false, false);

    public override async ValueTask TransformRequestAsync(HttpContext httpContext, HttpRequestMessage proxyRequest, string destinationPrefix, CancellationToken cancellationToken)
    {
        await base.TransformRequestAsync(httpContext, proxyRequest, destinationPrefix, cancellationToken);
        if (httpContext.Request.Headers.TE.Count > 0)
        {
            // YARP drops TE on HTTP/1.1; the rules kept it only as "TE: trailers" (RFC 9110 §10.1.4), which is forwarded.
            proxyRequest.Headers.TryAddWithoutValidation("TE", "trailers");
        }

        proxyRequest.RequestUri = uris.Get(light.Target);
    }

    public override ValueTask<bool> TransformResponseAsync(HttpContext httpContext, HttpResponseMessage? proxyResponse, CancellationToken cancellationToken)
    {
        if (proxyResponse is null)
        {
            return ValueTask.FromResult(false);
        }

        upgrade.HeadArrived();
        httpContext.Response.Headers.Clear();
        ContextMessages.CopyResponse(proxyResponse, httpContext.Response);
        ResponseHead head;
        try
        {
            head = light.Response.PrepareHead();
        }
        catch (HttpMessageException)
        {
            InvalidResponse = true;
            return ValueTask.FromResult(false);
        }

        InvalidResponse = head.IsInterim && !upgrades.AcceptsSwitch(head, upgrade.RequestedUpgrades);
        ResponseCopied = !InvalidResponse;
        if (ResponseCopied && HttpClientExchange.IsFullDuplex(proxyResponse, light.Response.RequestBody))
        {
            // The destination may wait for the rest of the body, and the client for this head before it sends it. YARP
            // would write the head only with the first body bytes.
            light.Response.BodyGoesOnBeside();
            return FlushHeadAsync(cancellationToken);
        }

        return ValueTask.FromResult(ResponseCopied);
    }

    private async ValueTask<bool> FlushHeadAsync(CancellationToken cancellationToken)
    {
        await light.Response.FlushAsync(cancellationToken);
        return true;
    }
}
