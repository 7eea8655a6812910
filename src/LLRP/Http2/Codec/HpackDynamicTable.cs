namespace LLRP.Http2.Codec;

/// <summary>
/// The HPACK dynamic table (RFC 7541 §2.3.2, §4): entries first in, first out, index 1 the newest. Names and values
/// live in a ring of bytes twice the size limit, each entry contiguous: when the next entry does not fit before the
/// ring's end, it goes to the start. That never overwrites a live entry: at that moment the live entries take at most
/// the limit minus the new entry's size, and end past twice the limit minus the new entry's length, so they start past
/// the limit; the bytes written from the start reach the limit only once every one of them is evicted. Entries are
/// offsets into the ring, kept in a ring of their own: no allocation per entry, no bytes moved.
/// </summary>
internal sealed class HpackDynamicTable
{
    /// <summary>RFC 7541 §4.1: an entry's size is its name's and value's lengths plus 32.</summary>
    public const int EntryOverhead = 32;

    private readonly byte[] _bytes;
    private readonly (int Offset, int NameLength, int ValueLength)[] _entries;
    private int _oldest;
    private int _end;

    /// <param name="sizeLimit">The most <see cref="MaxSize"/> may be set to: the SETTINGS_HEADER_TABLE_SIZE advertised.</param>
    public HpackDynamicTable(int sizeLimit)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(sizeLimit);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(sizeLimit, int.MaxValue / 2);
        SizeLimit = sizeLimit;
        MaxSize = sizeLimit;
        _bytes = new byte[sizeLimit * 2];
        _entries = new (int, int, int)[Math.Max(1, sizeLimit / EntryOverhead)];
    }

    public int SizeLimit { get; }

    /// <summary>The current maximum size, set by the encoder's dynamic table size updates (RFC 7541 §6.3).</summary>
    public int MaxSize { get; private set; }

    /// <summary>The sum of the entries' sizes (RFC 7541 §4.1).</summary>
    public int Size { get; private set; }

    public int Count { get; private set; }

    /// <summary>The name of the entry at <paramref name="index"/>, 1 (newest) to <see cref="Count"/>.</summary>
    public ReadOnlySpan<byte> Name(int index)
    {
        var (offset, nameLength, _) = Entry(index);
        return _bytes.AsSpan(offset, nameLength);
    }

    /// <summary>The value of the entry at <paramref name="index"/>, 1 (newest) to <see cref="Count"/>.</summary>
    public ReadOnlySpan<byte> Value(int index)
    {
        var (offset, nameLength, valueLength) = Entry(index);
        return _bytes.AsSpan(offset + nameLength, valueLength);
    }

    /// <summary>
    /// RFC 7541 §4.4: adds an entry, evicting the oldest until it fits, and returns true; an entry larger than the
    /// maximum size empties the table instead (false). <paramref name="name"/> may be an entry's name in this table,
    /// even one the addition evicts (§4.4): it is copied before anything else is written.
    /// </summary>
    public bool Add(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var entrySize = name.Length + value.Length + EntryOverhead;
        if (entrySize > MaxSize)
        {
            EvictUntil(0);
            return false;
        }

        EvictUntil(MaxSize - entrySize);
        var length = name.Length + value.Length;
        if (_end + length > _bytes.Length)
        {
            _end = 0;
        }

        name.CopyTo(_bytes.AsSpan(_end));
        value.CopyTo(_bytes.AsSpan(_end + name.Length));
        _entries[(_oldest + Count) % _entries.Length] = (_end, name.Length, value.Length);
        _end += length;
        Count++;
        Size += entrySize;
        return true;
    }

    /// <summary>RFC 7541 §4.3: a new maximum size evicts the oldest entries until the table fits in it.</summary>
    public void SetMaxSize(int maxSize)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxSize, SizeLimit);
        MaxSize = maxSize;
        EvictUntil(maxSize);
    }

    private (int Offset, int NameLength, int ValueLength) Entry(int index)
    {
        if ((uint)(index - 1) >= (uint)Count)
        {
            throw new ArgumentOutOfRangeException(nameof(index), index, "No such entry in the dynamic table.");
        }

        return _entries[(_oldest + Count - index) % _entries.Length];
    }

    private void EvictUntil(int size)
    {
        while (Size > size)
        {
            var (_, nameLength, valueLength) = _entries[_oldest];
            Size -= nameLength + valueLength + EntryOverhead;
            _oldest = (_oldest + 1) % _entries.Length;
            Count--;
        }

        if (Count == 0)
        {
            _oldest = 0;
            _end = 0;
        }
    }
}
