namespace LLRP.Http1;

/// <summary>One field line, as offsets into the message head it was parsed from. The value has its surrounding whitespace removed.</summary>
internal struct HeaderField
{
    public int NameStart;
    public int NameLength;
    public int ValueStart;
    public int ValueLength;
    public FieldKind Kind;

    public readonly ReadOnlySpan<byte> Name(ReadOnlySpan<byte> head) => head.Slice(NameStart, NameLength);

    public readonly ReadOnlySpan<byte> Value(ReadOnlySpan<byte> head) => head.Slice(ValueStart, ValueLength);
}
