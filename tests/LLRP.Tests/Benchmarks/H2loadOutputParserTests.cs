using LLRP.Bench.Load;

namespace LLRP.Tests.Benchmarks;

/// <summary>The bench runner's reading of h2load's (nghttp2 1.52) report and per-request log into its wrk figures.</summary>
public sealed class H2loadOutputParserTests
{
    private const string Report = """
        starting benchmark...
        Application protocol: h2c
        finished in 3.01s, 14580.50 req/s, 1.26MB/s
        requests: 29161 total, 29161 started, 29158 done, 29150 succeeded, 11 failed, 2 errored, 1 timeout
        status codes: 29150 2xx, 1 3xx, 4 4xx, 3 5xx
        traffic: 2.53MB (2652005) total, 2.07MB (2174932) headers (space savings 49.53%), 425.12KB (435320) data
                             min         max         mean         sd        +/- sd
        time for request:      146us    150.47ms      2.52ms      8.94ms    98.72%
        """;

    [Fact]
    public void Report_CountsRateAndFailures()
    {
        var result = H2loadOutputParser.Parse(Report, "", 2);

        Assert.Equal(29158, result.Requests);
        Assert.Equal(14580.50, result.RequestsPerSecond);
        Assert.Equal(2, result.DurationSeconds);
        Assert.Equal(8, result.Non2xxResponses);
        Assert.Equal(3, result.SocketErrors);
        Assert.True(double.IsNaN(result.LatencyP99Microseconds));
    }

    [Fact]
    public void Count2xx_TheStatusCodesLine()
    {
        Assert.Equal(29150, H2loadOutputParser.Count2xx(Report));
        Assert.Equal(0, H2loadOutputParser.Count2xx("connect error: Connection refused\n"));
    }

    [Fact]
    public void RequestLog_PercentilesByNearestRank()
    {
        var log = string.Concat(Enumerable.Range(1, 100).Reverse().Select(i => $"1795621188117851\t200\t{i * 10}\n"));

        var result = H2loadOutputParser.Parse(Report, log, 2);

        Assert.Equal(500, result.LatencyP50Microseconds);
        Assert.Equal(900, result.LatencyP90Microseconds);
        Assert.Equal(990, result.LatencyP99Microseconds);
        Assert.Equal(1000, result.LatencyMaxMicroseconds);
        Assert.Equal(505, result.LatencyMeanMicroseconds);
    }

    [Fact]
    public void NoRequestsLine_IsAFailedRun()
        => Assert.Throws<FormatException>(() => H2loadOutputParser.Parse("connect error: Connection refused\n", "", 2));

    [Fact]
    public void MalformedLogRow_IsRefused()
        => Assert.Throws<FormatException>(() => H2loadOutputParser.Parse(Report, "1795621188117851\t200\n", 2));
}
