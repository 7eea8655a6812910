using LLRP.Configuration;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Builds the upstream request URI from the downstream's scheme and authority and the target to forward (path prefix,
/// path and query, exactly as the <see cref="Http1.RequestRewriter"/> gives it). Canonicalisation is disabled, so
/// <c>%2F</c>, <c>..</c> and case in escapes reach the downstream byte for byte. The previous URI is reused when the
/// downstream and the target repeat.
/// </summary>
internal sealed class TargetUriCache
{
    private static readonly UriCreationOptions Verbatim = new() { DangerousDisablePathAndQueryCanonicalization = true };

    private DownstreamEndpoint? _downstream;
    private CachedString _target;
    private Uri? _last;
    private string? _lastTarget;

    /// <summary>Points the URIs at the destination of the next batch.</summary>
    public void Retarget(DownstreamEndpoint downstream)
    {
        if (!ReferenceEquals(downstream, _downstream))
        {
            _downstream = downstream;
            _last = null;
        }
    }

    public Uri Get(ReadOnlySpan<byte> target) => Get(_target.Get(target));

    public Uri Get(string target)
    {
        if (_last is not null && ReferenceEquals(target, _lastTarget))
        {
            return _last;
        }

        _lastTarget = target;
        return _last = new Uri(Downstream.Origin + target, in Verbatim);
    }

    private DownstreamEndpoint Downstream => _downstream ?? throw new InvalidOperationException($"{nameof(Retarget)} comes before the first URI.");
}
