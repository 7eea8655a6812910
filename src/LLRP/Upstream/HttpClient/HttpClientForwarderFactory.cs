using LLRP.Configuration;
using LLRP.Upstream.LightContext;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// The forwarders of the two modes over HttpClient, one per client connection, each with the invokers the sharing keys
/// give it: httpclient fills an <see cref="HttpRequestMessage"/> straight from the parsed head
/// (<see cref="HttpClientForwarder"/>), httpclient-httpcontext goes through a light <c>HttpContext</c> first
/// (<see cref="HttpContextForwarder"/>).
/// </summary>
internal sealed class HttpClientForwarderFactory(ProxyOptions options, HttpClientInvokers invokers) : IForwarderFactory
{
    public IRequestForwarder Create(ForwarderContext context)
    {
        var exchange = new HttpClientExchange(invokers.ForConnection(), options.ReuseHttpRequestMessage, options.ResponseHeadersTimeout);
        return options.Mode == ProxyMode.HttpClientWithContext
            ? new HttpContextForwarder(context, exchange, options.MaxResponseHeadersTotalSize)
            : new HttpClientForwarder(context, exchange, options.MaxResponseHeadersTotalSize);
    }
}
