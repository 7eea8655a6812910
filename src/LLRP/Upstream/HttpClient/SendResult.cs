using LLRP.Diagnostics;

namespace LLRP.Upstream.HttpClient;

/// <summary>What <c>SendAsync</c> gave: the response, or (when null) why there is none.</summary>
internal readonly record struct SendResult(HttpResponseMessage? Response, ForwarderError Error);
