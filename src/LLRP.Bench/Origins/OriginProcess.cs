namespace LLRP.Bench.Origins;

/// <summary>One origin process of a run.</summary>
/// <param name="Name">Its log file's and folder's name, e.g. <c>origin-nginx</c>.</param>
/// <param name="Label">What it is to the reader, e.g. <c>fast 2</c>.</param>
/// <param name="Kind">nginx or the bundled origin.</param>
/// <param name="Port">Its plain http port.</param>
/// <param name="TlsPort">Its TLS port, or null.</param>
/// <param name="H2cPort">Its port speaking HTTP/2 with prior knowledge only (nginx's <c>listen … http2</c>), or null.</param>
/// <param name="DelayMs">Milliseconds it waits before every response (the bundled origin's <c>delayMs</c>); 0 for none.</param>
/// <param name="Http2Only">
/// The bundled origin speaking HTTP/2 only on <paramref name="Port"/> (h2c with prior knowledge, Kestrel's
/// <c>Protocols=Http2</c>): the origin of the shapes with HTTP/2 to the origin and of the gRPC calls.
/// </param>
/// <param name="MaxStreams">&gt; 0: the concurrent streams it allows per HTTP/2 connection (Kestrel's default is 100).</param>
public sealed record OriginProcess(
    string Name, string Label, OriginKind Kind, int Port, int? TlsPort = null, int DelayMs = 0, int? H2cPort = null, bool Http2Only = false, int MaxStreams = 0)
{
    /// <summary>e.g. <c>nginx on 127.0.0.1:8083</c> or <c>the bundled origin with delayMs=20 on 127.0.0.1:8084</c>.</summary>
    public string Describe()
        => (Kind == OriginKind.Nginx ? "nginx" : "the bundled origin")
            + (DelayMs > 0 ? $" with delayMs={DelayMs}" : "")
            + (Http2Only ? " speaking HTTP/2 only (h2c)" : "")
            + (MaxStreams > 0 ? $", {MaxStreams} concurrent streams per connection" : "")
            + $" on 127.0.0.1:{Port}";
}
