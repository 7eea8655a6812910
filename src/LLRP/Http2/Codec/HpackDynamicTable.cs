namespace LLRP.Http2.Codec;

/// <summary>
/// The HPACK dynamic table (RFC 7541 §2.3.2, §4): entries first in, first out, index 1 the newest. Names and values
/// live in one byte buffer, appended one entry after another; when the next entry does not fit at the end, the live
/// entries (one contiguous run) move to the front. The buffer holds twice the size limit, so a move happens at most
/// once per limit's worth of bytes added, and an entry is always contiguous. Entries are offsets into it, kept in a
/// ring: no allocation per entry.
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
    /// RFC 7541 §4.4: adds an entry, evicting the oldest until it fits; an entry larger than the maximum size empties
    /// the table instead. <paramref name="name"/> and <paramref name="value"/> must not point into this table.
    /// </summary>
    public void Add(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var entrySize = name.Length + value.Length + EntryOverhead;
        if (entrySize > MaxSize)
        {
            EvictUntil(0);
            return;
        }

        EvictUntil(MaxSize - entrySize);
        var length = name.Length + value.Length;
        if (_end + length > _bytes.Length)
        {
            MoveToFront();
        }

        name.CopyTo(_bytes.AsSpan(_end));
        value.CopyTo(_bytes.AsSpan(_end + name.Length));
        _entries[(_oldest + Count) % _entries.Length] = (_end, name.Length, value.Length);
        _end += length;
        Count++;
        Size += entrySize;
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

    /// <summary>Moves the live entries, one contiguous run from the oldest to <see cref="_end"/>, to the buffer's start.</summary>
    private void MoveToFront()
    {
        var start = _entries[_oldest].Offset;
        _bytes.AsSpan(start, _end - start).CopyTo(_bytes);
        for (var i = 0; i < Count; i++)
        {
            ref var entry = ref _entries[(_oldest + i) % _entries.Length];
            entry.Offset -= start;
        }

        _end -= start;
    }
}
