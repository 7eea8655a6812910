using LLRP.Configuration;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Builds the upstream request URI from the downstream's scheme and authority and the target to forward (path prefix,
/// path and query, exactly as the <see cref="Http1.RequestRewriter"/> gives it). Canonicalisation is disabled, so
/// <c>%2F</c>, <c>..</c> and case in escapes reach the downstream byte for byte. The previous URI is reused when the target repeats.
/// </summary>
internal sealed class TargetUriCache(DownstreamEndpoint downstream)
{
    private static readonly UriCreationOptions Verbatim = new() { DangerousDisablePathAndQueryCanonicalization = true };

    private readonly string _origin = downstream.Uri.GetLeftPart(UriPartial.Authority);
    private CachedString _target;
    private Uri? _last;
    private string? _lastTarget;

    public Uri Get(ReadOnlySpan<byte> target) => Get(_target.Get(target));

    public Uri Get(string target)
    {
        if (_last is not null && ReferenceEquals(target, _lastTarget))
        {
            return _last;
        }

        _lastTarget = target;
        return _last = new Uri(_origin + target, in Verbatim);
    }

    /// <summary>The downstream's scheme and authority, without a trailing '/': what YARP calls the destination prefix.</summary>
    public string Origin => _origin;
}
