using LLRP.Configuration;
using LLRP.Upstream.HttpClient;

namespace LLRP.Upstream.LightContext;

/// <summary>httpclient-httpcontext mode's forwarders: one per client connection, each with the invokers the sharing keys give it.</summary>
internal sealed class HttpContextForwarderFactory(ProxyOptions options, HttpClientInvokers invokers) : IForwarderFactory
{
    public IRequestForwarder Create(ForwarderContext context) => new HttpContextForwarder(
        context,
        new HttpClientExchange(invokers.ForConnection(), options.ReuseHttpRequestMessage, options.ResponseHeadersTimeout),
        options.MaxResponseHeadersTotalSize);
}
