using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.Http;

namespace LLRP.Upstream.LightContext;

/// <summary>The request target as <see cref="Microsoft.AspNetCore.Http.Features.IHttpRequestFeature"/> holds it, re-made only when the target changes.</summary>
internal sealed class RequestTargetStrings
{
    private CachedString _cache;

    /// <summary>The target to forward (the destination's path prefix, then the client's target): sent byte for byte.</summary>
    public string RawTarget { get; private set; } = string.Empty;

    /// <summary>The path, unescaped as Kestrel presents it.</summary>
    public PathString Path { get; private set; }

    /// <summary>The query with its '?', or empty.</summary>
    public string Query { get; private set; } = string.Empty;

    public void Set(ReadOnlySpan<byte> target)
    {
        var raw = _cache.Get(target);
        if (ReferenceEquals(raw, RawTarget))
        {
            return;
        }

        RawTarget = raw;
        var query = raw.IndexOf('?');
        var path = query < 0 ? raw : raw[..query];
        Path = path.Length == 0 ? PathString.Empty : PathString.FromUriComponent(path);
        Query = query < 0 ? string.Empty : raw[query..];
    }
}
