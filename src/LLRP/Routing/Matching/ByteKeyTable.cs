using LLRP.Http1;

namespace LLRP.Routing;

/// <summary>
/// A read-only hash table keyed by bytes compared ignoring ASCII case, looked up with a span (no string per lookup).
/// Open addressing with linear probing, at most half full.
/// </summary>
internal sealed class ByteKeyTable<TValue>
    where TValue : class
{
    private readonly byte[]?[] _keys;
    private readonly TValue?[] _values;
    private readonly int _mask;

    /// <param name="entries">Keys distinct ignoring ASCII case.</param>
    public ByteKeyTable(IReadOnlyCollection<KeyValuePair<byte[], TValue>> entries)
    {
        var capacity = 4;
        while (capacity < entries.Count * 2)
        {
            capacity *= 2;
        }

        _keys = new byte[]?[capacity];
        _values = new TValue?[capacity];
        _mask = capacity - 1;
        foreach (var (key, value) in entries)
        {
            var slot = (int)AsciiCase.Hash(key) & _mask;
            while (_keys[slot] is not null)
            {
                slot = (slot + 1) & _mask;
            }

            _keys[slot] = key;
            _values[slot] = value;
        }
    }

    public TValue? Find(ReadOnlySpan<byte> key)
    {
        var slot = (int)AsciiCase.Hash(key) & _mask;
        while (_keys[slot] is { } candidate)
        {
            if (AsciiCase.EqualsIgnoreCase(candidate, key))
            {
                return _values[slot];
            }

            slot = (slot + 1) & _mask;
        }

        return null;
    }
}
