using LLRP.Configuration;

namespace LLRP.Http1;

/// <summary>The limits applied while parsing a request head, copied from <see cref="ProxyOptions"/>.</summary>
internal readonly record struct RequestLimits(int MaxRequestLineSize, int MaxHeadersTotalSize, int MaxHeaderCount)
{
    public static RequestLimits From(ProxyOptions options)
        => new(options.MaxRequestLineSize, options.MaxRequestHeadersTotalSize, options.MaxRequestHeaderCount);

    /// <summary>The longest head that can be valid: the request line and the field section.</summary>
    public int MaxHeadSize => MaxRequestLineSize + MaxHeadersTotalSize;
}
