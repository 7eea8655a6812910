namespace LLRP.Bench.Origins;

/// <summary>One origin process of a run.</summary>
/// <param name="Name">Its log file's and folder's name, e.g. <c>origin-nginx</c>.</param>
/// <param name="Label">What it is to the reader, e.g. <c>fast 2</c>.</param>
/// <param name="Kind">nginx or the bundled origin.</param>
/// <param name="Port">Its plain http port.</param>
/// <param name="TlsPort">Its TLS port, or null.</param>
/// <param name="H2cPort">Its port speaking HTTP/2 with prior knowledge only (nginx's <c>listen … http2</c>), or null.</param>
/// <param name="DelayMs">Milliseconds it waits before every response (the bundled origin's <c>delayMs</c>); 0 for none.</param>
public sealed record OriginProcess(string Name, string Label, OriginKind Kind, int Port, int? TlsPort = null, int DelayMs = 0, int? H2cPort = null)
{
    /// <summary>e.g. <c>nginx on 127.0.0.1:8083</c> or <c>the bundled origin with delayMs=20 on 127.0.0.1:8084</c>.</summary>
    public string Describe()
        => (Kind == OriginKind.Nginx ? "nginx" : "the bundled origin")
            + (DelayMs > 0 ? $" with delayMs={DelayMs}" : "")
            + $" on 127.0.0.1:{Port}";
}
