namespace LLRP.Upstream.HttpClient;

/// <summary>Field names and values as strings, cached by position: the i-th field of a request is compared with the i-th field of the previous one.</summary>
internal sealed class FieldStringCache
{
    private CachedString[] _names = new CachedString[16];
    private CachedString[] _values = new CachedString[16];

    public string Name(int index, ReadOnlySpan<byte> bytes) => Slot(ref _names, index).Get(bytes);

    public string Value(int index, ReadOnlySpan<byte> bytes) => Slot(ref _values, index).Get(bytes);

    private static ref CachedString Slot(ref CachedString[] slots, int index)
    {
        if (index >= slots.Length)
        {
            Array.Resize(ref slots, Math.Max(index + 1, slots.Length * 2));
        }

        return ref slots[index];
    }
}
