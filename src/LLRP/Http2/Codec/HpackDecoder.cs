namespace LLRP.Http2.Codec;

/// <summary>
/// Decodes HPACK field blocks (RFC 7541) of one connection, keeping the dynamic table between blocks. Strings that are
/// sent raw are passed to the sink in place; Huffman-coded ones are decoded into a buffer this decoder owns and reuses,
/// so decoding a field allocates nothing once the buffer has grown to the largest block's strings.
/// </summary>
internal sealed class HpackDecoder
{
    private const int InitialBufferSize = 1024;

    private readonly int _maxHeaderListSize;
    private byte[] _buffer = new byte[InitialBufferSize];
    private int _buffered;

    /// <param name="maxDynamicTableSize">The SETTINGS_HEADER_TABLE_SIZE advertised: the largest table the peer may ask for.</param>
    /// <param name="maxHeaderListSize">The SETTINGS_MAX_HEADER_LIST_SIZE enforced (RFC 9113 §6.5.2).</param>
    public HpackDecoder(int maxDynamicTableSize, int maxHeaderListSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxHeaderListSize);
        DynamicTable = new HpackDynamicTable(maxDynamicTableSize);
        _maxHeaderListSize = maxHeaderListSize;
    }

    public HpackDynamicTable DynamicTable { get; }

    /// <summary>
    /// Decodes one complete field block (HEADERS and CONTINUATION fragments joined, padding and priority removed) and
    /// gives its fields to <paramref name="sink"/> in order, names as sent. Malformed input throws
    /// <see cref="HpackDecodingException"/>. When the header list size (RFC 9113 §6.5.2) goes above the limit, the
    /// fields from there on are not given to the sink, the rest of the block is still decoded (the dynamic table stays
    /// in step with the peer's), then <see cref="HeaderListTooLargeException"/> is thrown.
    /// </summary>
    public void Decode<TSink>(ReadOnlySpan<byte> block, TSink sink)
        where TSink : IHeaderSink, allows ref struct
    {
        var position = 0;
        var fieldSeen = false;
        long headerListSize = 0;
        while (position < block.Length)
        {
            _buffered = 0;
            var first = block[position];
            ReadOnlySpan<byte> name;
            ReadOnlySpan<byte> value;
            if ((first & 0x80) != 0)
            {
                // RFC 7541 §6.1: indexed header field.
                var index = HpackInteger.Read(block, ref position, 7);
                name = Name(index);
                value = Value(index);
            }
            else if ((first & 0xC0) == 0x40)
            {
                // RFC 7541 §6.2.1: literal header field with incremental indexing. Adding may overwrite an evicted
                // entry whose name this one took (§4.4), so the sink gets the new entry's copy.
                name = ReadName(block, ref position, 6);
                value = ReadString(block, ref position);
                if (DynamicTable.Add(name, value))
                {
                    name = DynamicTable.Name(1);
                    value = DynamicTable.Value(1);
                }
            }
            else if ((first & 0xE0) == 0x20)
            {
                ReadTableSizeUpdate(block, ref position, fieldSeen);
                continue;
            }
            else
            {
                // RFC 7541 §6.2.2 (0000) and §6.2.3 (0001, never indexed): literal header field without indexing.
                name = ReadName(block, ref position, 4);
                value = ReadString(block, ref position);
            }

            fieldSeen = true;
            headerListSize += name.Length + value.Length + HpackDynamicTable.EntryOverhead;
            if (headerListSize <= _maxHeaderListSize)
            {
                sink.OnHeader(name, value);
            }
        }

        if (headerListSize > _maxHeaderListSize)
        {
            HeaderListTooLargeException.Throw(headerListSize, _maxHeaderListSize);
        }
    }

    /// <summary>
    /// RFC 7541 §6.3: a dynamic table size update; above the advertised SETTINGS_HEADER_TABLE_SIZE it is a decoding
    /// error, and it must come at the beginning of the block (§4.2).
    /// </summary>
    private void ReadTableSizeUpdate(ReadOnlySpan<byte> block, ref int position, bool fieldSeen)
    {
        if (fieldSeen)
        {
            HpackDecodingException.Throw("A dynamic table size update follows a field in the block (RFC 7541 §4.2).");
        }

        var size = HpackInteger.Read(block, ref position, 5);
        if (size > DynamicTable.SizeLimit)
        {
            HpackDecodingException.Throw("A dynamic table size update is above SETTINGS_HEADER_TABLE_SIZE (RFC 7541 §6.3).");
        }

        DynamicTable.SetMaxSize(size);
    }

    /// <summary>RFC 7541 §6.2: a name index in the first byte's prefix, or 0 and a string literal name after it.</summary>
    private ReadOnlySpan<byte> ReadName(ReadOnlySpan<byte> block, scoped ref int position, int prefixBits)
    {
        var index = HpackInteger.Read(block, ref position, prefixBits);
        return index == 0 ? ReadString(block, ref position) : Name(index);
    }

    /// <summary>RFC 7541 §5.2: a string literal: the Huffman flag, a 7-bit prefix length, the bytes.</summary>
    private ReadOnlySpan<byte> ReadString(ReadOnlySpan<byte> block, scoped ref int position)
    {
        if (position >= block.Length)
        {
            HpackDecodingException.Throw("The field block ends before a string literal (RFC 7541 §5.2).");
        }

        var huffman = (block[position] & 0x80) != 0;
        var length = HpackInteger.Read(block, ref position, 7);
        if (length > block.Length - position)
        {
            HpackDecodingException.Throw("A string literal's length goes beyond the field block (RFC 7541 §5.2).");
        }

        var encoded = block.Slice(position, length);
        position += length;
        if (!huffman)
        {
            return encoded;
        }

        var decoded = Reserve(HuffmanDecoder.MaxDecodedLength(length));
        var written = HuffmanDecoder.Decode(encoded, decoded);
        _buffered += written;
        return decoded[..written];
    }

    /// <summary>
    /// Room for <paramref name="length"/> more bytes of the current field in the buffer. Growing replaces the buffer;
    /// a name already decoded stays valid in the old one, which its span keeps alive.
    /// </summary>
    private Span<byte> Reserve(int length)
    {
        if (_buffer.Length - _buffered < length)
        {
            var grown = new byte[Math.Max(_buffer.Length * 2, _buffered + length)];
            _buffer = grown;
            _buffered = 0;
        }

        return _buffer.AsSpan(_buffered, length);
    }

    /// <summary>RFC 7541 §2.3.3: index 0 and an index past both tables are decoding errors.</summary>
    private ReadOnlySpan<byte> Name(int index)
    {
        CheckIndex(index);
        return index <= HpackStaticTable.Count ? HpackStaticTable.Name(index) : DynamicTable.Name(index - HpackStaticTable.Count);
    }

    private ReadOnlySpan<byte> Value(int index)
        => index <= HpackStaticTable.Count ? HpackStaticTable.Value(index) : DynamicTable.Value(index - HpackStaticTable.Count);

    private void CheckIndex(int index)
    {
        if (index == 0)
        {
            HpackDecodingException.Throw("Index 0 is not used (RFC 7541 §6.1).");
        }

        if (index > HpackStaticTable.Count + DynamicTable.Count)
        {
            HpackDecodingException.Throw("An index is past the static and dynamic tables (RFC 7541 §2.3.3).");
        }
    }
}
