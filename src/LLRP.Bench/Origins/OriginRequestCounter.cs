using System.Globalization;
using System.Net;

namespace LLRP.Bench.Origins;

/// <summary>
/// Reads how many requests an origin has received, the reading included: the bundled origin's <c>/requests</c>, nginx's
/// <c>/stub_status</c> (scripts/nginx-origin.sh). Two readings, less one, count what arrived between them.
/// </summary>
public static class OriginRequestCounter
{
    /// <exception cref="HttpRequestException">The origin did not answer 200.</exception>
    /// <exception cref="FormatException">The answer holds no count.</exception>
    public static async Task<long> ReadAsync(HttpClient http, OriginProcess origin, CancellationToken cancellationToken)
    {
        var path = origin.Kind == OriginKind.Nginx ? "/stub_status" : "/requests";
        var text = await http.GetStringAsync(new Uri($"http://127.0.0.1:{origin.Port}{path}"), cancellationToken);
        return origin.Kind == OriginKind.Nginx ? ParseStubStatus(text) : long.Parse(text.Trim(), NumberStyles.None, CultureInfo.InvariantCulture);
    }

    /// <summary>
    /// Reads how many gRPC unary calls the bundled origin has answered with status OK (its <c>/grpc-unary-ok</c>, the reading
    /// not counted), over HTTP/2 with prior knowledge when the origin speaks nothing else.
    /// </summary>
    /// <exception cref="HttpRequestException">The origin did not answer 200.</exception>
    /// <exception cref="FormatException">The answer holds no count.</exception>
    public static async Task<long> ReadUnaryOkAsync(HttpClient http, OriginProcess origin, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri($"http://127.0.0.1:{origin.Port}/grpc-unary-ok"))
        {
            Version = origin.Http2Only ? HttpVersion.Version20 : HttpVersion.Version11,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        using var response = await http.SendAsync(request, cancellationToken);
        response.EnsureSuccessStatusCode();
        var text = await response.Content.ReadAsStringAsync(cancellationToken);
        return long.Parse(text.Trim(), NumberStyles.None, CultureInfo.InvariantCulture);
    }

    /// <summary>
    /// The third figure of the line after <c>server accepts handled requests</c>:
    /// <c>Active connections: 1 \nserver accepts handled requests\n 7 7 12 \nReading: …</c>.
    /// </summary>
    private static long ParseStubStatus(string text)
    {
        var lines = text.Split('\n', StringSplitOptions.TrimEntries);
        var header = Array.FindIndex(lines, line => line.StartsWith("server accepts handled requests", StringComparison.Ordinal));
        var figures = header >= 0 && header + 1 < lines.Length ? lines[header + 1].Split(' ', StringSplitOptions.RemoveEmptyEntries) : [];
        return figures.Length == 3
            ? long.Parse(figures[2], NumberStyles.None, CultureInfo.InvariantCulture)
            : throw new FormatException($"not nginx's stub_status: '{text}'");
    }
}
