using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.LightContext;

/// <summary>Whether the request being forwarded has a body, as Kestrel tells YARP (which otherwise guesses from the fields).</summary>
internal sealed class RequestBodyDetection : IHttpRequestBodyDetectionFeature
{
    public bool CanHaveBody { get; set; }
}
