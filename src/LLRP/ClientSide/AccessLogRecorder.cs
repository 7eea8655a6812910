using System.Diagnostics;
using System.Text;
using LLRP.Configuration;
using LLRP.Diagnostics.AccessLogging;
using LLRP.Http1;
using LLRP.ProxyProtocol;

namespace LLRP.ClientSide;

/// <summary>
/// The access log of one client connection, made only when the log is on. Each request's line, <c>Referer</c> and
/// <c>User-Agent</c> are copied as it joins a batch (<see cref="Capture"/>), since the head is parsed again for the next
/// request and the client buffer is released; each answer then takes the next captured request, in order: the batch's
/// forwarded responses (<see cref="Forwarded"/>), or an answer the proxy made (<see cref="Answered"/>), which has none
/// when the request did not parse. Lines are formatted by the connection's <see cref="AccessLogLine"/>.
/// </summary>
/// <param name="proxyHeader">The TLVs of the PROXY protocol header the connection arrived with, written on each line; null when its listener does not accept one.</param>
internal sealed class AccessLogRecorder(AccessLogWriter writer, AccessLogFormat format, byte[] client, ProxyHeaderFeature? proxyHeader)
{
    private readonly AccessLogLine _line = new(writer, format == AccessLogFormat.Json);
    private CapturedRequest[] _requests = new CapturedRequest[4];
    private byte[] _text = new byte[1024];
    private int _textLength;
    private int _captured;
    private int _logged;
    private long _upstreamStart;

    /// <summary>Forgets the requests of the previous read.</summary>
    public void Reset() => (_captured, _logged, _textLength) = (0, 0, 0);

    /// <summary>Copies the fields of <paramref name="head"/>, a request about to be forwarded or answered; the first of a batch starts its upstream time.</summary>
    public void Capture(RequestHead head, bool firstOfBatch)
    {
        if (firstOfBatch)
        {
            _upstreamStart = Stopwatch.GetTimestamp();
        }

        var source = head.Source.Span;
        var lineEnd = source.IndexOf((byte)'\r');
        ReadOnlySpan<byte> referer = default, userAgent = default;
        foreach (var field in head.Fields)
        {
            var name = field.Name(source);
            if (name.Length == 7 && Ascii.EqualsIgnoreCase(name, "referer"u8))
            {
                referer = field.Value(source);
            }
            else if (name.Length == 10 && Ascii.EqualsIgnoreCase(name, "user-agent"u8))
            {
                userAgent = field.Value(source);
            }
        }

        if (_captured == _requests.Length)
        {
            Array.Resize(ref _requests, _captured * 2);
        }

        var line = Copy(lineEnd < 0 ? source : source[..lineEnd]);
        var refererAt = Copy(referer);
        var userAgentAt = Copy(userAgent);
        _requests[_captured++] = new CapturedRequest(line, lineEnd < 0 ? source.Length : lineEnd, refererAt, referer.Length, userAgentAt, userAgent.Length);
    }

    /// <summary>Logs the final responses <paramref name="response"/> recorded for the batch, each ending where the next began.</summary>
    public void Forwarded(ClientResponseWriter response, long startTimestamp, string? route, string? destination)
    {
        var now = Stopwatch.GetTimestamp();
        for (var i = 0; i < response.Recorded; i++)
        {
            ref readonly var record = ref response.RecordOf(i);
            var end = i + 1 < response.Recorded ? response.RecordOf(i + 1).HeadTimestamp : now;
            Log(record.Status, record.BodyBytes, route, destination, record.Status, Milliseconds(startTimestamp, end), Milliseconds(_upstreamStart, record.HeadTimestamp));
        }
    }

    /// <summary>Logs an answer the proxy wrote itself (<paramref name="answer"/>: its whole bytes); a start of 0 leaves the request time unknown.</summary>
    public void Answered(ReadOnlySpan<byte> answer, long startTimestamp, string? route, string? destination)
    {
        var status = (answer[9] - '0') * 100 + (answer[10] - '0') * 10 + (answer[11] - '0');
        var body = answer.Length - answer.IndexOf("\r\n\r\n"u8) - 4;
        Log(status, body, route, destination, upstreamStatus: 0, startTimestamp == 0 ? -1 : Milliseconds(startTimestamp, Stopwatch.GetTimestamp()), upstreamMs: -1);
    }

    private void Log(int status, long bodyBytes, string? route, string? destination, int upstreamStatus, long requestMs, long upstreamMs)
    {
        var request = _logged < _captured ? _requests[_logged++] : default;
        var text = _text.AsSpan();
        var record = new AccessLogRecord
        {
            Client = client,
            Time = DateTime.UtcNow,
            Request = text.Slice(request.LineStart, request.LineLength),
            Status = status,
            BodyBytes = bodyBytes,
            Referer = text.Slice(request.RefererStart, request.RefererLength),
            UserAgent = text.Slice(request.UserAgentStart, request.UserAgentLength),
            Route = route,
            Destination = destination,
            UpstreamStatus = upstreamStatus,
            RequestMs = requestMs,
            UpstreamMs = upstreamMs,
            ProxyProtocol = proxyHeader is not null,
            ProxyAlpn = proxyHeader?.Alpn,
            ProxyAuthority = proxyHeader?.Authority,
        };
        _line.Write(record);
    }

    /// <summary>Appends <paramref name="value"/> to the text; returns where it starts.</summary>
    private int Copy(ReadOnlySpan<byte> value)
    {
        if (_textLength + value.Length > _text.Length)
        {
            Array.Resize(ref _text, Math.Max(_text.Length * 2, _textLength + value.Length));
        }

        var start = _textLength;
        value.CopyTo(_text.AsSpan(start));
        _textLength += value.Length;
        return start;
    }

    private static long Milliseconds(long start, long end)
        => start == 0 || end == 0 ? -1 : (long)Stopwatch.GetElapsedTime(start, end).TotalMilliseconds;
}
