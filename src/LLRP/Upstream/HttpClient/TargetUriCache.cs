using LLRP.Configuration;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Builds the upstream request URI from the destination's scheme and authority and the target to forward (path prefix,
/// path and query, exactly as the <see cref="Http1.RequestRewriter"/> gives it). Canonicalisation is disabled, so
/// <c>%2F</c>, <c>..</c> and case in escapes reach the destination byte for byte. The previous URI is reused when the
/// destination and the target repeat.
/// </summary>
internal sealed class TargetUriCache
{
    private static readonly UriCreationOptions Verbatim = new() { DangerousDisablePathAndQueryCanonicalization = true };

    private DestinationEndpoint? _destination;
    private CachedString _target;
    private Uri? _last;
    private string? _lastTarget;

    /// <summary>Points the URIs at the destination of the next batch.</summary>
    public void Retarget(DestinationEndpoint destination)
    {
        if (!ReferenceEquals(destination, _destination))
        {
            _destination = destination;
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
        return _last = new Uri(Destination.Origin + target, in Verbatim);
    }

    private DestinationEndpoint Destination => _destination ?? throw new InvalidOperationException($"{nameof(Retarget)} comes before the first URI.");
}
