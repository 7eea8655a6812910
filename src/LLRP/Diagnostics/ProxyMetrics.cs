using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace LLRP.Diagnostics;

/// <summary>
/// The <c>LLRP</c> meter, readable with <c>dotnet-counters monitor --counters LLRP</c>. Instruments cost a flag
/// check when nobody listens, so they stay on the request path.
/// </summary>
internal sealed class ProxyMetrics
{
    public const string MeterName = "LLRP";

    /// <summary>The tag naming the destination of a measurement: its base URI, or <c>cluster/name</c> in a <c>ReverseProxy</c> cluster.</summary>
    public const string DestinationTag = "destination";

    /// <summary>The tag naming the cluster of a destination's gauges.</summary>
    public const string ClusterTag = "cluster";

    /// <summary>The tag of a response's status code (OpenTelemetry's name).</summary>
    public const string StatusCodeTag = "http.response.status_code";

    private static readonly string[] ErrorNames = Enum.GetNames<ForwarderError>();

    /// <summary>Status codes 100 to 599, boxed once, so that tagging a request with its status allocates nothing.</summary>
    private static readonly object[] StatusCodes = Enumerable.Range(0, 600).Select(code => (object)code).ToArray();

    private readonly Counter<long> _requests;
    private readonly Histogram<double> _requestDuration;
    private readonly UpDownCounter<long> _clientConnections;
    private readonly UpDownCounter<long> _upstreamConnections;
    private readonly Counter<long> _forwardingErrors;
    private readonly Counter<long> _rejectedRequests;
    private readonly Counter<long> _bytesReceived;
    private readonly Counter<long> _bytesSent;
    private readonly Counter<long> _tunnels;
    private readonly UpDownCounter<long> _activeTunnels;
    private readonly Counter<long> _retries;
    private readonly Counter<long> _pipelined;
    private readonly Counter<long> _ejections;
    private readonly Counter<long> _destinationFailures;
    private readonly Counter<long> _rejectedConnections;
    private readonly Counter<long> _unrouted;
    private readonly Counter<long> _accessLogDropped;

    public ProxyMetrics(IMeterFactory meterFactory)
    {
        var meter = Meter = meterFactory.Create(MeterName);
        _requests = meter.CreateCounter<long>("llrp.requests", "{request}", "Responses forwarded to clients.");
        _requestDuration = meter.CreateHistogram<double>("llrp.request.duration", "s", "From the request head parsed to the response forwarded.");
        _clientConnections = meter.CreateUpDownCounter<long>("llrp.client.active_connections", "{connection}", "Open client connections.");
        _upstreamConnections = meter.CreateUpDownCounter<long>("llrp.upstream.active_connections", "{connection}", "Open upstream connections.");
        _forwardingErrors = meter.CreateCounter<long>("llrp.upstream.errors", "{error}", "Forwarding failures by kind.");
        _rejectedRequests = meter.CreateCounter<long>("llrp.requests.rejected", "{request}", "Client requests rejected as malformed or over a limit.");
        _bytesReceived = meter.CreateCounter<long>("llrp.client.bytes_received", "By", "Bytes read from clients.");
        _bytesSent = meter.CreateCounter<long>("llrp.client.bytes_sent", "By", "Bytes written to clients.");
        _tunnels = meter.CreateCounter<long>("llrp.tunnels", "{tunnel}", "Connections that became tunnels after 101 Switching Protocols.");
        _activeTunnels = meter.CreateUpDownCounter<long>("llrp.tunnels.active", "{tunnel}", "Open tunnels.");
        _retries = meter.CreateCounter<long>("llrp.retries", "{retry}", "Requests sent again to another destination after the one tagged failed them.");
        _pipelined = meter.CreateCounter<long>("llrp.upstream.pipelined", "{request}", "Requests of HTTP/2 streams written behind another's on an upstream connection (pool.pipelineDepth).");
        _ejections = meter.CreateCounter<long>("llrp.destination.ejections", "{ejection}", "Destinations ejected by passive health.");
        _destinationFailures = meter.CreateCounter<long>("llrp.destination.failures", "{failure}", "Transport failures of each attempt on a destination, retried or not, by kind: what passive health counts.");
        _unrouted = meter.CreateCounter<long>("llrp.requests.unrouted", "{request}", "Requests no route takes, answered 404.");
        _accessLogDropped = meter.CreateCounter<long>("llrp.access_log.dropped", "{line}", "Access log lines dropped because the writer's buffer was full.");
        _rejectedConnections = meter.CreateCounter<long>("llrp.client.rejected_connections", "{connection}", "Client connections answered 503 and closed at limits.maxClientConnections.");
    }

    /// <summary>The <c>LLRP</c> meter, for instruments observed from state kept elsewhere (the destinations' gauges).</summary>
    public Meter Meter { get; }

    /// <summary>The tag of the HTTP version a client used (OpenTelemetry's name), on requests of the HTTP/2 front end.</summary>
    public const string ProtocolVersionTag = "network.protocol.version";

    /// <summary>The <see cref="ProtocolVersionTag"/> of an HTTP/2 request.</summary>
    public static readonly KeyValuePair<string, object?> Http2 = new(ProtocolVersionTag, "2");

    /// <param name="status">The status code of the response, tagged <see cref="StatusCodeTag"/> on <c>llrp.requests</c>.</param>
    public void RequestCompleted(long startTimestamp, KeyValuePair<string, object?> destination, int status)
    {
        _requests.Add(1, destination, new KeyValuePair<string, object?>(StatusCodeTag, (uint)status < StatusCodes.Length ? StatusCodes[status] : status));
        if (_requestDuration.Enabled)
        {
            _requestDuration.Record(Stopwatch.GetElapsedTime(startTimestamp).TotalSeconds, destination);
        }
    }

    /// <summary>As <see cref="RequestCompleted(long, KeyValuePair{string, object?}, int)"/>, tagged with the client's <paramref name="protocol"/> too.</summary>
    public void RequestCompleted(long startTimestamp, KeyValuePair<string, object?> destination, int status, KeyValuePair<string, object?> protocol)
    {
        _requests.Add(1, destination, new KeyValuePair<string, object?>(StatusCodeTag, (uint)status < StatusCodes.Length ? StatusCodes[status] : status), protocol);
        if (_requestDuration.Enabled)
        {
            _requestDuration.Record(Stopwatch.GetElapsedTime(startTimestamp).TotalSeconds, destination, protocol);
        }
    }

    public void ClientConnectionOpened() => _clientConnections.Add(1);

    public void ClientConnectionClosed() => _clientConnections.Add(-1);

    public void UpstreamConnectionOpened() => _upstreamConnections.Add(1);

    public void UpstreamConnectionClosed() => _upstreamConnections.Add(-1);

    /// <param name="destination">The <c>destination</c> tag, or default when none was chosen.</param>
    public void ForwardingFailed(ForwarderError error, KeyValuePair<string, object?> destination)
    {
        var type = ErrorType(error);
        if (destination.Key is null)
        {
            _forwardingErrors.Add(1, type);
        }
        else
        {
            _forwardingErrors.Add(1, type, destination);
        }
    }

    public void Retried(KeyValuePair<string, object?> destination) => _retries.Add(1, destination);

    public void DestinationFailed(ForwarderError error, KeyValuePair<string, object?> destination)
        => _destinationFailures.Add(1, ErrorType(error), destination);

    public void DestinationEjected(KeyValuePair<string, object?> destination) => _ejections.Add(1, destination);

    public void RequestUnrouted() => _unrouted.Add(1);

    public void RequestPipelined() => _pipelined.Add(1);

    public void AccessLogLineDropped() => _accessLogDropped.Add(1);

    public void ClientConnectionRejected() => _rejectedConnections.Add(1);

    public void RequestRejected(RejectionReason reason) => _rejectedRequests.Add(1, new KeyValuePair<string, object?>("reason", reason.ToString()));

    public void BytesReceived(long count) => _bytesReceived.Add(count);

    public void BytesSent(long count) => _bytesSent.Add(count);

    public void TunnelOpened()
    {
        _tunnels.Add(1);
        _activeTunnels.Add(1);
    }

    public void TunnelClosed() => _activeTunnels.Add(-1);

    /// <summary>The <c>error.type</c> tag of a forwarding failure, from names built once.</summary>
    private static KeyValuePair<string, object?> ErrorType(ForwarderError error) => new("error.type", ErrorNames[(int)error]);
}
