namespace LLRP.Configuration;

/// <summary>The format of the access log's lines (key <c>accessLog.format</c>).</summary>
public enum AccessLogFormat
{
    /// <summary>nginx's <c>combined</c> format, then <c>route=… destination=… upstream_status=… request_time=… upstream_time=…</c>.</summary>
    Combined,

    /// <summary>One JSON object a line, with the same fields.</summary>
    Json,
}
