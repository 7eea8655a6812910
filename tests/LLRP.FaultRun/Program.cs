// The fault run: requests through a running proxy to a faulting destination this program serves, from clients that
// fault too (see FaultingClient, FaultingDestination). scripts/faults.sh drives it once per mode:
//   LLRP.FaultRun --proxy-port P --destination-port D --admin http://127.0.0.1:A [--proxy-pid PID]
//                 [--requests 250000] [--connections 32] [--fault-pct 5] [--warmup-pct 10] [--seed 1] [--leak-wait-s 90]
//                 [--client h1|h2] [--streams 8]
// The proxy is started first with --downstream=http://127.0.0.1:D and admin.urls=http://127.0.0.1:A. The run sends the
// warm-up share of the requests, then the rest; it reads the proxy's VmRSS (/proc/PID/status) at the start, after the
// warm-up and at the end, and its connection gauges once the clients are done (client connections) and once the
// destination has closed its connections (upstream connections: idle pooled ones close within the pool's idle timeout,
// so the gauge is polled for up to leak-wait-s seconds). With --client h2 each connection is an HTTP/2 client (h2c with
// prior knowledge) with --streams streams in flight, and its faults are FaultingHttp2Client's. It prints one key=value
// line per figure and exits 1 when a response reached the wrong request or carried wrong bytes, an exchange stalled, or
// a gauge did not return to 0.
//   LLRP.FaultRun connections --proxy-port P --destination-port D --admin URL --limit L --over N
// fills a proxy started with limits.maxClientConnections=L: L connections with one request each, held open, then N
// more that must each get 503 and the close (ConnectionLimitRun); it checks the client connection gauge (L while they
// are held, 0 once closed) and the rejected connection counter (N), and exits 1 otherwise.
using System.Diagnostics;
using System.Globalization;
using LLRP.FaultRun;

var connectionsCommand = args.Length > 0 && args[0] == "connections";
var options = new Dictionary<string, string>(StringComparer.Ordinal);
for (var i = connectionsCommand ? 1 : 0; i + 1 < args.Length; i += 2)
{
    options[args[i].TrimStart('-')] = args[i + 1];
}

long Number(string name, long fallback) => options.TryGetValue(name, out var text) ? long.Parse(text, CultureInfo.InvariantCulture) : fallback;

if (!options.ContainsKey("proxy-port") || !options.ContainsKey("destination-port") || !options.ContainsKey("admin"))
{
    Console.Error.WriteLine("usage: LLRP.FaultRun --proxy-port P --destination-port D --admin URL [--proxy-pid PID] [--requests N] [--connections N] [--fault-pct N] [--warmup-pct N] [--seed N] [--leak-wait-s N] [--client h1|h2] [--streams N]");
    return 2;
}

if (connectionsCommand)
{
    return await ConnectionLimitCommand.RunAsync(
        (int)Number("proxy-port", 0), (int)Number("destination-port", 0), options["admin"], (int)Number("limit", 10_000), (int)Number("over", 500));
}

var client = options.GetValueOrDefault("client", "h1");
if (client is not ("h1" or "h2"))
{
    Console.Error.WriteLine($"--client is h1 or h2, not '{client}'");
    return 2;
}

var requests = Number("requests", 250_000);
var connections = (int)Number("connections", 32);
var warmup = requests * Number("warmup-pct", 10) / 100;
var proxyPid = options.TryGetValue("proxy-pid", out var pid) ? pid : null;
var tally = new FaultTally();
await using var destination = new FaultingDestination((int)Number("destination-port", 0), Number("fault-pct", 5) / 100.0, (int)Number("seed", 1), tally);
var runner = new FaultRunner((int)Number("proxy-port", 0), destination, tally, Number("fault-pct", 5) / 100.0, (int)Number("seed", 1));
using var gauges = new ProxyGauges(options["admin"]);

string Rss() => proxyPid is null || !File.Exists($"/proc/{proxyPid}/status")
    ? "n/a"
    : File.ReadLines($"/proc/{proxyPid}/status").First(line => line.StartsWith("VmRSS:", StringComparison.Ordinal))[6..].Trim();

var rssStart = Rss();
var clock = Stopwatch.StartNew();
var streams = (int)Number("streams", 8);
Task Run(long count) => client == "h2" ? runner.RunHttp2Async(count, connections, streams) : runner.RunAsync(count, connections);
await Run(warmup);
var rssWarm = Rss();
await Run(requests - warmup);
var elapsed = clock.Elapsed;
var rssEnd = Rss();
var clientConnections = await gauges.WaitForZeroAsync(ProxyGauges.ClientConnections, TimeSpan.FromSeconds(10));
destination.CloseAll();
var upstreamConnections = await gauges.WaitForZeroAsync(ProxyGauges.UpstreamConnections, TimeSpan.FromSeconds(Number("leak-wait-s", 90)));

Console.WriteLine($"requests={runner.Requests} duration_s={elapsed.TotalSeconds:F1} requests_per_s={runner.Requests / elapsed.TotalSeconds:F0} connections={connections} client={client}{(client == "h2" ? $" streams={streams}" : "")}");
Console.WriteLine($"counts: {tally.Describe()}");
Console.WriteLine($"mismatches={tally.Mismatches} stalled={tally["client.stalled"]} collateral_failures={tally.Collateral}");
Console.WriteLine($"leaked_client_connections={clientConnections} leaked_upstream_connections={upstreamConnections}");
Console.WriteLine($"rss_start={rssStart} rss_after_warmup={rssWarm} rss_end={rssEnd}");
foreach (var problem in tally.Problems)
{
    Console.WriteLine($"problem: {problem}");
}

return tally.Mismatches == 0 && tally["client.stalled"] == 0 && clientConnections == 0 && upstreamConnections == 0 ? 0 : 1;
