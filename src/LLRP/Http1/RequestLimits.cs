namespace LLRP.Http1;

/// <summary>The limits applied while parsing a request head.</summary>
internal readonly record struct RequestLimits(int MaxRequestLineSize, int MaxHeadersTotalSize, int MaxHeaderCount)
{
    /// <summary>The longest head that can be valid: the request line and the field section.</summary>
    public int MaxHeadSize => MaxRequestLineSize + MaxHeadersTotalSize;
}
