namespace LLRP.Routing;

/// <summary>
/// What the route matcher reads of a request, whatever front end parsed it. Spans stay valid while the request's
/// head does; the matcher keeps none of them.
/// </summary>
internal interface IRoutableRequest
{
    /// <summary>The method token as received (RFC 9110 §9.1: case-sensitive).</summary>
    ReadOnlySpan<byte> Method { get; }

    /// <summary>The authority as received, <c>host[:port]</c>: the absolute-form's, else <c>Host</c>'s; may be empty.</summary>
    ReadOnlySpan<byte> Host { get; }

    /// <summary>The port the scheme implies (80 for http, 443 for https) when <see cref="Host"/> names none; 0 when unknown.</summary>
    int DefaultPort { get; }

    /// <summary>The path without the query, as received (percent-encoded); <c>*</c> for the asterisk-form (RFC 9112 §3.2.4).</summary>
    ReadOnlySpan<byte> Path { get; }

    /// <summary>The query after '?', without it; empty when there is none.</summary>
    ReadOnlySpan<byte> Query { get; }

    int FieldCount { get; }

    ReadOnlySpan<byte> FieldName(int index);

    /// <summary>The value of one field line, without surrounding whitespace.</summary>
    ReadOnlySpan<byte> FieldValue(int index);
}
