using LLRP.Configuration;

namespace LLRP.Upstream.HttpClient;

/// <summary>httpclient mode's forwarders: one per client connection, each with the invokers the sharing keys give it.</summary>
internal sealed class HttpClientForwarderFactory(ProxyOptions options, HttpClientInvokers invokers) : IForwarderFactory
{
    public IRequestForwarder Create(ForwarderContext context) => new HttpClientForwarder(
        context,
        new HttpClientExchange(invokers.ForConnection(), options.ReuseHttpRequestMessage, options.ResponseHeadersTimeout),
        options.MaxResponseHeadersTotalSize);
}
