namespace LLRP.Bench.Load;

/// <summary>
/// The shapes of DESIGN.md's benchmark method: GET 10 B, 1 KB, 100 KB and POST 1 KB, at 32, 128 and 256 connections, over
/// http; GET 1 KB, 100 KB and POST 1 KB at 32 connections with TLS from the client (<c>https-http-*</c>) and on both legs
/// (<c>https-https-*</c>); a WebSocket echo of 64 KiB messages on 32 connections (<c>ws-64kib-c32</c>); and, only when
/// named, GET 10 B balanced over two fast origins and one that delays every response 20 ms (<c>balance-slow-c64</c>); and
/// GET 10 B and POST 1 KB over h2c from the client, 32 connections of 10 concurrent streams each, to an HTTP/1.1 origin
/// (<c>h2-get-10b-c32m10</c>, <c>h2-post-1kb-c32m10</c>), driven by h2load; and, only when named, the shapes with HTTP/2 on
/// both legs (<see cref="Http2ToOrigin"/>).
/// </summary>
public static class LoadShapes
{
    public static readonly LoadShape WebSocketEcho = new(
        "ws-64kib-c32", "WebSocket echo, 64 KiB binary messages, 32 connections", "/ws", 32, 0, WebSocketMessageBytes: 64 * 1024);

    /// <summary>
    /// The balancing policies against one slow destination: each request that goes to the slow origin waits 20 ms, so a
    /// policy that counts requests in flight sends it fewer. 64 connections, so that in-flight counts differ.
    /// </summary>
    public static readonly LoadShape BalanceSlow = new(
        "balance-slow-c64", "GET 10 B over three origins, one delaying every response 20 ms, 64 connections", "/?s=10", 64, 0, SlowOriginDelayMs: 20);

    /// <summary>The HTTP/2 shapes: h2load <c>-c 32 -m 10</c> over h2c, the contender → origin leg HTTP/1.1.</summary>
    public static readonly IReadOnlyList<LoadShape> Http2 =
    [
        new("h2-get-10b-c32m10", "HTTP/2 (h2c) GET 10 B, 32 connections × 10 streams", "/?s=10", 32, 0, new Legs(false, false, ClientHttp2: true), StreamsPerConnection: 10),
        new("h2-post-1kb-c32m10", "HTTP/2 (h2c) POST 1 KB to /sink, 32 connections × 10 streams", "/sink", 32, 1024, new Legs(false, false, ClientHttp2: true), StreamsPerConnection: 10),
    ];

    /// <summary>
    /// HTTP/2 on both legs, h2c with prior knowledge: h2load <c>-c 32 -m 10</c> GET 10 B to the nginx origin's h2c listener;
    /// gRPC unary calls to the bundled origin's Echo service (an h2c-only listener), 4 channels of 8 calls in flight each;
    /// and seed 002's scaling test, h2load <c>-c 1 -m 100</c> GET 10 B to a bundled h2c origin that allows 10 concurrent
    /// streams per connection, so one upstream connection caps the contender at 10 requests in flight; and the same gRPC unary
    /// calls made by h2load (<see cref="LoadShape.GrpcByH2load"/>), as many in flight on as many connections as Grpc.Net.Client's
    /// 4 × 8, so that the two rows differ only in what the load costs CPU 1.
    /// </summary>
    public static readonly IReadOnlyList<LoadShape> Http2ToOrigin =
    [
        new("h2h2-get-10b-c32m10", "HTTP/2 on both legs (h2c) GET 10 B, 32 connections × 10 streams", "/?s=10", 32, 0, new Legs(false, false, ClientHttp2: true, OriginHttp2: true), StreamsPerConnection: 10),
        new("grpc-unary-c32", "gRPC unary Echo (h2c on both legs), 4 channels × 8 calls in flight", "/llrp.echo.Echo/Unary", 4, 0, new Legs(false, false, ClientHttp2: true, OriginHttp2: true), StreamsPerConnection: 8, Grpc: true),
        new("h2scale-c1m100", "HTTP/2 on both legs (h2c) GET 10 B, 1 connection × 100 streams, origin allowing 10 streams per connection", "/?s=10", 1, 0, new Legs(false, false, ClientHttp2: true, OriginHttp2: true), StreamsPerConnection: 100, OriginMaxStreams: 10),
        new("grpc-unary-h2load-c4m8", "gRPC unary Echo (h2c on both legs) by h2load, 4 connections × 8 streams", "/llrp.echo.Echo/Unary", 4, 0, new Legs(false, false, ClientHttp2: true, OriginHttp2: true), StreamsPerConnection: 8, Grpc: true, GrpcByH2load: true),
    ];

    /// <summary>GET 10 B on 32 keep-alive connections through a TCP relay to the origin.</summary>
    public static readonly LoadShape TcpLong = new("tcp-long", "TCP relay, GET 10 B, 32 keep-alive connections", "/?s=10", 32, 0, Tcp: true);

    /// <summary>GET 10 B with <c>Connection: close</c> through a TCP relay: a new client and upstream connection per request.</summary>
    public static readonly LoadShape TcpShort = new(
        "tcp-short", "TCP relay, GET 10 B, Connection: close (one connection per request), 32 connections", "/?s=10", 32, 0, Tcp: true, ConnectionClose: true);

    /// <summary>What <c>--shapes</c> accepts.</summary>
    public static readonly IReadOnlyList<LoadShape> All = [.. new[] { 32, 128, 256 }.SelectMany(Create), .. WithTls(), .. Http2, WebSocketEcho, BalanceSlow, TcpLong, TcpShort, .. Http2ToOrigin];

    /// <summary>
    /// What runs without <c>--shapes</c>: all but the balancing and TCP shapes, which need contenders of their own, and the
    /// shapes with HTTP/2 to the origin, which need origins of their own.
    /// </summary>
    public static readonly IReadOnlyList<LoadShape> Default = [.. All.Where(shape => !shape.IsBalance && !shape.Tcp && !shape.Legs.OriginHttp2)];

    /// <summary>The single shape of a quick run.</summary>
    public static readonly LoadShape Quick = All[0];

    private static IEnumerable<LoadShape> Create(int connections)
    {
        yield return new LoadShape($"get-10b-c{connections}", $"GET 10 B, {connections} connections", "/?s=10", connections, 0);
        yield return new LoadShape($"get-1kb-c{connections}", $"GET 1 KB, {connections} connections", "/?s=1024", connections, 0);
        yield return new LoadShape($"get-100kb-c{connections}", $"GET 100 KB, {connections} connections", "/?s=102400", connections, 0);
        yield return new LoadShape($"post-1kb-c{connections}", $"POST 1 KB to /sink, {connections} connections", "/sink", connections, 1024);
    }

    /// <summary>The 32-connection shapes but GET 10 B, named after their legs: https-http-get-1kb-c32, https-https-get-1kb-c32, …</summary>
    private static IEnumerable<LoadShape> WithTls()
        => from legs in new[] { new Legs(ClientTls: true, OriginTls: false), new Legs(ClientTls: true, OriginTls: true) }
           from shape in Create(32).Skip(1)
           select shape with
           {
               Name = $"{legs.Name}-{shape.Name}",
               Title = $"{shape.Title}, {(legs.OriginTls ? "TLS on both legs" : "TLS from the client, http to the origin")}",
               Legs = legs,
           };
}
