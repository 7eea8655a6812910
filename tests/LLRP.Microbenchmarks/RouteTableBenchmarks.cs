using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using LLRP.Configuration.Routes;
using LLRP.Http1;
using LLRP.Routing;

namespace LLRP.Microbenchmarks;

/// <summary>
/// Route lookup on parsed HTTP/1.1 heads among tables of 1 to 1,000 routes: distinct first segments, one route in ten
/// bound to a host, one in ten with a header condition, a catch-all for a wildcard host last. A hit on the first
/// route, a hit on the last service route, and a miss that tries the catch-all.
/// </summary>
[MemoryDiagnoser]
public class RouteTableBenchmarks
{
    private const string Headers = "User-Agent: Mozilla/5.0\r\nAccept: */*\r\nAccept-Encoding: gzip, br\r\nX-Tenant: blue\r\n";

    private readonly RequestHead _early = new();
    private readonly RequestHead _late = new();
    private readonly RequestHead _miss = new();
    private RouteTable<int> _table = null!;

    [Params(1, 10, 100, 1000)]
    public int RouteCount { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var routes = new List<(RouteOptions, int)>();
        for (var i = 0; i < RouteCount; i++)
        {
            var hosts = i % 10 == 5 ? new[] { $"h{i}.example.com" } : [];
            var headers = i % 10 == 3 ? new[] { new HeaderMatchOptions("X-Tenant", ["blue"], HeaderMatchMode.ExactHeader, false) } : [];
            var path = i % 2 == 0 ? $"/svc{i}/{{**rest}}" : $"/svc{i}/{{resource}}/{{id}}";
            routes.Add((Route($"route-{i}", path, hosts, headers), i));
        }

        routes.Add((Route("catch-all", "/{**catch-all}", ["*.internal"], []), -1));
        _table = new RouteTable<int>(routes);
        Parse($"GET /svc0/items/42?page=2 HTTP/1.1\r\nHost: example.com\r\n{Headers}\r\n", _early);
        Parse($"GET /svc{RouteCount - 1}/items/42 HTTP/1.1\r\nHost: example.com\r\n{Headers}\r\n", _late);
        Parse($"GET /nothing/here HTTP/1.1\r\nHost: example.com\r\n{Headers}\r\n", _miss);
    }

    [Benchmark]
    public int HitEarly() => Match(_early);

    [Benchmark]
    public int HitLate() => Match(_late);

    [Benchmark]
    public int Miss() => Match(_miss);

    private int Match(RequestHead head)
    {
        var request = new Http1RoutableRequest(head, 80);
        return _table.TryMatch(ref request, out var match) ? match.Value : -2;
    }

    private static RouteOptions Route(string id, string path, string[] hosts, HeaderMatchOptions[] headers)
        => new(id, "cluster", 0, new RouteMatchOptions(path, hosts, [], headers, []), RouteTransformOptions.None);

    private static void Parse(string message, RequestHead head)
    {
        if (!RequestHeadParser.TryParse(new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes(message)), head, Messages.Limits, out _))
        {
            throw new InvalidOperationException("incomplete head");
        }
    }
}
