using System.Globalization;

namespace LLRP.Bench.Load;

/// <summary>
/// One load pattern: a request (GET of a body size, or POST of a body) at a connection count over given legs, or a
/// WebSocket echo of fixed-size messages.
/// </summary>
/// <param name="Name">Stable identifier used in file names and crank result names, e.g. <c>get-10b-c32</c>.</param>
/// <param name="Title">Human title, e.g. <c>GET 10 B, 32 connections</c>.</param>
/// <param name="Path">Path and query on the origin's contract, e.g. <c>/?s=10</c>.</param>
/// <param name="Connections">wrk's or h2load's <c>-c</c>, or the WebSocket connections.</param>
/// <param name="RequestBodyBytes">POST body size; 0 for a GET.</param>
/// <param name="Legs">The schemes of the client → contender and contender → origin legs; http on both by default.</param>
/// <param name="WebSocketMessageBytes">
/// &gt; 0: a WebSocket echo (<see cref="WebSocketEchoLoad"/>) of binary messages of this size instead of wrk.
/// </param>
/// <param name="SlowOriginDelayMs">
/// &gt; 0: the contender balances over several origins (<see cref="Origins.OriginPlan.Balance"/>), one of which delays
/// every response by this many milliseconds; only contenders that take several origins run it.
/// </param>
/// <param name="StreamsPerConnection">
/// &gt; 0: h2load over h2c (<see cref="H2loadRunner"/>) with this many concurrent streams per connection (<c>-m</c>) instead of wrk.
/// </param>
/// <param name="Tcp">Through a contender's TCP relay (L4) instead of its HTTP proxy: only the TCP contenders and direct run it.</param>
/// <param name="ConnectionClose">wrk sends <c>Connection: close</c>: one TCP connection per request.</param>
/// <param name="Grpc">
/// gRPC unary calls (<see cref="GrpcUnaryLoad"/>) instead of h2load: <see cref="Connections"/> channels, each with
/// <see cref="StreamsPerConnection"/> calls in flight, to the bundled origin's Echo service.
/// </param>
/// <param name="GrpcByH2load">
/// With <see cref="Grpc"/>: the calls are made by h2load (<see cref="H2loadRunner"/>, <see cref="Connections"/> × <see cref="StreamsPerConnection"/>)
/// POSTing <see cref="GrpcEchoRequest.Framed"/> with <c>content-type: application/grpc</c> and <c>te: trailers</c>, after one
/// <see cref="GrpcUnaryCheck"/> call through the contender, their gRPC status checked by <see cref="GrpcUnaryAudit"/>.
/// </param>
/// <param name="OriginMaxStreams">
/// &gt; 0: the HTTP/2 origin (<see cref="Legs.OriginHttp2"/>) is a bundled origin of its own that allows this many concurrent
/// streams per connection (Kestrel's <c>Limits:Http2:MaxStreamsPerConnection</c>), as in seed 002's scaling test.
/// </param>
public sealed record LoadShape(
    string Name, string Title, string Path, int Connections, int RequestBodyBytes, Legs Legs = default, int WebSocketMessageBytes = 0,
    int SlowOriginDelayMs = 0, int StreamsPerConnection = 0, bool Tcp = false, bool ConnectionClose = false, bool Grpc = false,
    int OriginMaxStreams = 0, bool GrpcByH2load = false)
{
    private const string SizeQuery = "/?s=";

    public bool IsPost => RequestBodyBytes > 0;

    public bool IsWebSocket => WebSocketMessageBytes > 0;

    public bool IsBalance => SlowOriginDelayMs > 0;

    public bool IsHttp2 => StreamsPerConnection > 0;

    /// <summary>The body size the request asks the origin for (<c>/?s=N</c>); null when it asks for none.</summary>
    public int? ResponseSize => Path.StartsWith(SizeQuery, StringComparison.Ordinal)
        ? int.Parse(Path.AsSpan(SizeQuery.Length), NumberStyles.None, CultureInfo.InvariantCulture)
        : null;
}
