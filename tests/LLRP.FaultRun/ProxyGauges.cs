using System.Globalization;

namespace LLRP.FaultRun;

/// <summary>The proxy's connection gauges, read from its admin listener's <c>/metrics</c> (Prometheus text).</summary>
internal sealed class ProxyGauges(string adminUrl) : IDisposable
{
    public const string ClientConnections = "llrp_client_active_connections";
    public const string UpstreamConnections = "llrp_upstream_active_connections";

    private readonly HttpClient _http = new() { BaseAddress = new Uri(adminUrl), Timeout = TimeSpan.FromSeconds(10) };

    /// <summary>The sum of every series of gauge <paramref name="name"/>.</summary>
    public async Task<long> ReadAsync(string name)
    {
        var text = await _http.GetStringAsync("/metrics");
        return text.Split('\n')
            .Where(line => line.StartsWith(name, StringComparison.Ordinal) && line.Length > name.Length && line[name.Length] is ' ' or '{')
            .Sum(line => (long)double.Parse(line[(line.LastIndexOf(' ') + 1)..], CultureInfo.InvariantCulture));
    }

    /// <summary>Polls gauge <paramref name="name"/> until it reads 0, for at most <paramref name="patience"/>; returns the last reading.</summary>
    public async Task<long> WaitForZeroAsync(string name, TimeSpan patience)
    {
        var deadline = DateTime.UtcNow + patience;
        while (true)
        {
            var value = await ReadAsync(name);
            if (value == 0 || DateTime.UtcNow > deadline)
            {
                return value;
            }

            await Task.Delay(100);
        }
    }

    public void Dispose() => _http.Dispose();
}
