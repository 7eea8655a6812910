using LLRP.Configuration;
using LLRP.Proxy;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http;

namespace LLRP.Http2.Server;

/// <summary>
/// LLRP's own HTTP/2 server (key <c>http2.server=llrp</c>): <see cref="ProtocolSelection"/> runs each HTTP/2 connection
/// of a proxy listener here instead of in Kestrel's HTTP/2 server, and its request streams reach the same
/// <see cref="Http2FrontEnd"/>.
/// </summary>
internal sealed class Http2Server(Http2FrontEnd frontEnd, ProxyOptions options, ClientConnectionTracker tracker)
{
    private readonly ServerLimits _limits = ServerLimits.Of(options);
    private readonly Func<HttpContext, ValueTask> _application = frontEnd.HandleAsync;

    /// <param name="connection">A connection that opens with the preface (h2c), or negotiated <c>h2</c> by ALPN.</param>
    /// <param name="tls">The connection runs over TLS.</param>
    public Task RunAsync(ConnectionContext connection, bool tls) => new Http2Connection(connection, _application, _limits, tracker, tls).RunAsync();
}
