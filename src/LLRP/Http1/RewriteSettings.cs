namespace LLRP.Http1;

/// <summary>How <see cref="RequestRewriter"/> treats the fields a proxy owns.</summary>
/// <param name="PreserveHost">Forward the client's <c>Host</c> instead of the destination's authority.</param>
/// <param name="ForwardedHeaders">Append <c>X-Forwarded-For</c>, set <c>X-Forwarded-Proto</c> and <c>X-Forwarded-Host</c>.</param>
/// <param name="AddVia">Append <c>Via</c> (RFC 9110 §7.6.3).</param>
internal readonly record struct RewriteSettings(bool PreserveHost, bool ForwardedHeaders, bool AddVia);
