using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using LLRP.Diagnostics.AccessLogging;

namespace LLRP.Tests.Diagnostics;

/// <summary>The access log's two formats, from one record: nginx's combined fields then LLRP's, and JSON.</summary>
public sealed class AccessLogLineTests
{
    private static readonly DateTime Time = new(2026, 11, 25, 13, 26, 46, 123, DateTimeKind.Utc);

    [Fact]
    public void Combined_EveryField_NginxOrderThenLlrpFields()
    {
        var line = Combined(Record("GET /a?b=1 HTTP/1.1"u8, "http://from.test/"u8, "curl/8.5"u8, "api", "api/a1", upstreamStatus: 200, requestMs: 1234, upstreamMs: 5));

        Assert.Equal(
            "10.0.0.7 - - [25/Nov/2026:13:26:46 +0000] \"GET /a?b=1 HTTP/1.1\" 200 10 \"http://from.test/\" \"curl/8.5\" route=api destination=api/a1 upstream_status=200 request_time=1.234 upstream_time=0.005\n",
            line);
    }

    [Fact]
    public void Combined_Unknowns_Dashes()
    {
        var line = Combined(Record([], [], [], route: null, destination: null, upstreamStatus: 0, requestMs: -1, upstreamMs: -1));

        Assert.Equal("10.0.0.7 - - [25/Nov/2026:13:26:46 +0000] \"-\" 200 10 \"-\" \"-\" route=- destination=- upstream_status=- request_time=- upstream_time=-\n", line);
    }

    [Fact]
    public void Combined_QuotesBackslashesControlAndNonAscii_EscapedAsNginxDoes()
    {
        var line = Combined(Record("GET /é HTTP/1.1"u8, "a\"b"u8, "c\\d\u0001"u8, "my route", "d", upstreamStatus: 200, requestMs: 0, upstreamMs: 0));

        Assert.Contains("\"GET /\\xC3\\xA9 HTTP/1.1\"", line, StringComparison.Ordinal);
        Assert.Contains("\"a\\x22b\" \"c\\x5Cd\\x01\"", line, StringComparison.Ordinal);
        Assert.Contains("route=my\\x20route ", line, StringComparison.Ordinal);
        Assert.Contains("request_time=0.000 upstream_time=0.000", line, StringComparison.Ordinal);
    }

    [Fact]
    public void Json_EveryField_OneObjectThenLineFeed()
    {
        var line = Json(Record("GET /a HTTP/1.1"u8, "http://from.test/"u8, "curl/8.5"u8, "api", "api/a1", upstreamStatus: 200, requestMs: 1234, upstreamMs: 5));

        Assert.EndsWith("}\n", line, StringComparison.Ordinal);
        Assert.Single(line.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        using var document = JsonDocument.Parse(line);
        var root = document.RootElement;
        Assert.Equal("10.0.0.7", root.GetProperty("remote_addr").GetString());
        Assert.Equal(Time, root.GetProperty("time").GetDateTime().ToUniversalTime());
        Assert.Equal("GET /a HTTP/1.1", root.GetProperty("request").GetString());
        Assert.Equal(200, root.GetProperty("status").GetInt32());
        Assert.Equal(10, root.GetProperty("body_bytes_sent").GetInt64());
        Assert.Equal("http://from.test/", root.GetProperty("http_referer").GetString());
        Assert.Equal("curl/8.5", root.GetProperty("http_user_agent").GetString());
        Assert.Equal("api", root.GetProperty("route").GetString());
        Assert.Equal("api/a1", root.GetProperty("destination").GetString());
        Assert.Equal(200, root.GetProperty("upstream_status").GetInt32());
        Assert.Equal(1.234, root.GetProperty("request_time").GetDouble());
        Assert.Equal(0.005, root.GetProperty("upstream_time").GetDouble());
    }

    [Fact]
    public void Json_UnknownsNullAndInvalidUtf8Replaced()
    {
        var line = Json(Record(Encoding.Latin1.GetBytes("GET /\u00FF HTTP/1.1"), [], "q\"\n"u8, route: null, destination: null, upstreamStatus: 0, requestMs: -1, upstreamMs: -1));

        using var document = JsonDocument.Parse(line);
        var root = document.RootElement;
        Assert.Equal("GET /\uFFFD HTTP/1.1", root.GetProperty("request").GetString());
        Assert.Equal("q\"\n", root.GetProperty("http_user_agent").GetString());
        foreach (var name in new[] { "http_referer", "route", "destination", "upstream_status", "request_time", "upstream_time" })
        {
            Assert.Equal(JsonValueKind.Null, root.GetProperty(name).ValueKind);
        }
    }

    private static AccessLogRecord Record(ReadOnlySpan<byte> request, ReadOnlySpan<byte> referer, ReadOnlySpan<byte> userAgent, string? route, string? destination, int upstreamStatus, long requestMs, long upstreamMs) => new()
    {
        Client = "10.0.0.7"u8,
        Time = Time,
        Request = request,
        Status = 200,
        BodyBytes = 10,
        Referer = referer,
        UserAgent = userAgent,
        Route = route,
        Destination = destination,
        UpstreamStatus = upstreamStatus,
        RequestMs = requestMs,
        UpstreamMs = upstreamMs,
    };

    private static string Combined(in AccessLogRecord record)
    {
        var output = new ArrayBufferWriter<byte>();
        CombinedLine.Write(output, record);
        return Encoding.UTF8.GetString(output.WrittenSpan);
    }

    private static string Json(in AccessLogRecord record)
    {
        var output = new ArrayBufferWriter<byte>();
        using var json = new Utf8JsonWriter(output, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, SkipValidation = true });
        JsonLine.Write(json, output, record);
        return Encoding.UTF8.GetString(output.WrittenSpan);
    }
}
