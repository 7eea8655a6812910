using System.Text;
using LLRP.Configuration;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Builds the upstream request URI: the downstream's scheme and authority, its path prefix, then the client's path and
/// query exactly as received. Path and query canonicalisation is disabled, so <c>%2F</c>, <c>..</c> and case in escapes
/// reach the downstream byte for byte. The URI of the previous request is reused when the target repeats.
/// </summary>
internal sealed class TargetUriCache(DownstreamEndpoint downstream)
{
    private static readonly UriCreationOptions Verbatim = new() { DangerousDisablePathAndQueryCanonicalization = true };

    private readonly string _origin = downstream.Uri.GetLeftPart(UriPartial.Authority) + Encoding.ASCII.GetString(downstream.PathPrefix);
    private byte[] _lastTarget = [];
    private int _lastLength = -1;
    private string? _lastTargetString;
    private Uri? _last;

    /// <summary>The URI for an origin-form (or absolute-form path) target.</summary>
    public Uri Get(ReadOnlySpan<byte> target)
    {
        if (_last is not null && _lastLength >= 0 && target.SequenceEqual(_lastTarget.AsSpan(0, _lastLength)))
        {
            return _last;
        }

        if (_lastTarget.Length < target.Length)
        {
            _lastTarget = new byte[Math.Max(target.Length, 256)];
        }

        target.CopyTo(_lastTarget);
        _lastLength = target.Length;
        _lastTargetString = null;
        return _last = Create(Encoding.ASCII.GetString(target));
    }

    /// <summary>The URI for a target already held as a string (the HttpContext mode's raw target).</summary>
    public Uri Get(string target)
    {
        if (_last is not null && (ReferenceEquals(target, _lastTargetString) || target == _lastTargetString))
        {
            return _last;
        }

        _lastTargetString = target;
        _lastLength = -1;
        return _last = Create(target);
    }

    private Uri Create(string target)
        => new(target.StartsWith('/') ? _origin + target : _origin + "/" + target, in Verbatim);
}
