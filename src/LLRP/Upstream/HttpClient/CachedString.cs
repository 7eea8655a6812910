using System.Text;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// The string of the bytes seen last, decoded as Latin-1 (one char per byte, so any field value round-trips).
/// Requests on one connection usually repeat their fields, so most lookups hit and allocate nothing.
/// </summary>
internal struct CachedString
{
    private byte[]? _bytes;
    private string? _value;

    public string Get(ReadOnlySpan<byte> bytes)
    {
        if (_value is not null && bytes.SequenceEqual(_bytes))
        {
            return _value;
        }

        _bytes = bytes.ToArray();
        _value = Encoding.Latin1.GetString(bytes);
        return _value;
    }
}
