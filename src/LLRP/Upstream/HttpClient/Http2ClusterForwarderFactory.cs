using LLRP.Configuration;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Raw mode's HttpClient forwarders, for HTTP/1.1 clients' requests to the clusters that ask HTTP/2 of their destinations
/// (<see cref="Configuration.Routes.ClusterOptions.AsksHttp2"/>), which raw mode's own HTTP/1.1 client does not speak:
/// an <see cref="HttpClientForwarder"/> for each client connection that sends such a request, all over one invoker, so that
/// one HTTP/2 connection to a destination carries the requests of many client connections (and of HTTP/2 clients: the
/// invoker is the HTTP/2 front end's, which the host owns).
/// </summary>
internal sealed class Http2ClusterForwarderFactory(ProxyOptions options, HttpMessageInvoker invoker) : IForwarderFactory
{
    private readonly HttpMessageInvoker[] _invokers = [invoker];

    public IRequestForwarder Create(ForwarderContext context) => new HttpClientForwarder(
        context,
        new HttpClientExchange(InvokerSelector.Shared(_invokers, 0, roundRobin: false), options.ReuseHttpRequestMessage, options.ResponseHeadersTimeout),
        options.MaxResponseHeadersTotalSize);
}
