using System.Net;
using LLRP.ClientSide;
using LLRP.Http1;
using LLRP.Routing;
using LLRP.Upstream.Http2Client;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.Sockets;

namespace LLRP.Http2;

/// <summary>
/// What the HTTP/2 front end needs for one request stream and can use again for the next: the rendered head and its
/// buffer, the forwarding rules, the forwarder with its caches, the routing, and the last client's address as
/// <c>X-Forwarded-For</c> gets it. Held by one stream at a time (<see cref="StreamPartsPool"/>).
/// </summary>
/// <param name="invoker">The HttpClient end every HTTP/2 client shares.</param>
/// <param name="maxResponseHeadSize">The most bytes a destination's response head may take.</param>
/// <param name="rewrite">The forwarding rules' settings.</param>
/// <param name="viaEntry">What <c>Via</c> gets for a request received over HTTP/2.</param>
/// <param name="pooled">Raw mode's exchange over its pooled HTTP/1.1 connections, or null.</param>
/// <param name="http2">Raw mode's exchange over its own HTTP/2 connections, or null.</param>
internal sealed class StreamParts(
    HttpMessageInvoker invoker, int maxResponseHeadSize, RewriteSettings rewrite, byte[] viaEntry, PooledStreamExchange? pooled, Http2StreamExchange? http2 = null)
{
    public RenderedRequestHead Head { get; } = new();

    /// <summary>The forwarding rules, pointed at each stream's client with <see cref="RequestRewriter.ForClient"/>.</summary>
    public RequestRewriter Rewriter { get; } = new([], [], [], [], rewrite) { ViaEntry = viaEntry };

    public StreamForwarder Forwarder { get; } = new(invoker, maxResponseHeadSize, pooled, http2);

    private IPAddress? _clientIp;
    private byte[] _client = [];
    private ClientRouting? _routing;
    private ClientRouting? _tlsRouting;

    /// <summary>
    /// The routing of a stream over these parts' forwarder and rules, made once per default port (80, or 443 over TLS) and
    /// reused with the last stream's route and destination forgotten. The parts belong to one front end, whose
    /// <paramref name="router"/> and <paramref name="services"/> are the same at every call.
    /// </summary>
    public ClientRouting RoutingFor(Router router, RoutingServices services, bool tls)
    {
        ref var routing = ref tls ? ref _tlsRouting : ref _routing;
        routing ??= new ClientRouting(router, Forwarder, Rewriter, Forwarder, services, tls ? 443 : 80);
        routing.Forget();
        return routing;
    }

    /// <summary>The client's address as <c>X-Forwarded-For</c> gets it (<see cref="ClientAddress"/>), made again only when it changes.</summary>
    public byte[] ClientAddressOf(IPAddress? address)
    {
        if (address is null)
        {
            return ClientAddress.Of(null);
        }

        if (!address.Equals(_clientIp))
        {
            (_client, _clientIp) = (ClientAddress.Of(new IPEndPoint(address, 0)), address);
        }

        return _client;
    }
}
