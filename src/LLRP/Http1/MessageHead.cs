using System.Buffers;

namespace LLRP.Http1;

/// <summary>
/// The parsed head of one HTTP/1.1 message: its bytes, the field lines as offsets into them, and the facts a
/// proxy needs (framing, persistence). One instance is reused for every message on a connection.
/// </summary>
internal abstract class MessageHead
{
    /// <summary>Room for 8 fields at first (an idle connection holds its heads): grown, once per connection, by a message with more.</summary>
    private HeaderField[] _fields = new HeaderField[8];
    private byte[]? _copy;

    /// <summary>The whole head, start line to the empty line included. Valid until the input it came from is advanced.</summary>
    public ReadOnlyMemory<byte> Source { get; private set; }

    public int FieldCount { get; private set; }

    public ReadOnlySpan<HeaderField> Fields => _fields.AsSpan(0, FieldCount);

    /// <summary>True for HTTP/1.0; anything else accepted is treated as HTTP/1.1 (RFC 9110 §6.2).</summary>
    public bool IsHttp10 { get; set; }

    public BodyFraming Framing { get; set; }

    /// <summary>The body length when <see cref="Framing"/> is <see cref="BodyFraming.ContentLength"/>.</summary>
    public long ContentLength { get; set; }

    /// <summary>A <c>Connection: close</c> option was present.</summary>
    public bool ConnectionClose { get; set; }

    /// <summary>A <c>Connection: keep-alive</c> option was present.</summary>
    public bool ConnectionKeepAlive { get; set; }

    /// <summary>A <c>Connection: upgrade</c> option was present (RFC 9110 §7.8).</summary>
    public bool ConnectionUpgrade { get; set; }

    /// <summary>Whether the sender intends the connection to persist after this message (RFC 9112 §9.3).</summary>
    public bool IsPersistent => !ConnectionClose && (!IsHttp10 || ConnectionKeepAlive);

    public void Reset()
    {
        FieldCount = 0;
        IsHttp10 = false;
        Framing = BodyFraming.None;
        ContentLength = 0;
        ConnectionClose = false;
        ConnectionKeepAlive = false;
        ConnectionUpgrade = false;
        Source = default;
        ResetMessage();
    }

    protected abstract void ResetMessage();

    public void SetSource(ReadOnlyMemory<byte> source) => Source = source;

    /// <summary>Copies the first <paramref name="length"/> bytes of a multi-segment input into a buffer kept for the connection.</summary>
    public ReadOnlySpan<byte> Linearize(scoped in ReadOnlySequence<byte> input, int length)
    {
        if (_copy is null || _copy.Length < length)
        {
            _copy = new byte[Math.Max(length, 4096)];
        }

        input.Slice(0, length).CopyTo(_copy);
        Source = _copy.AsMemory(0, length);
        return _copy.AsSpan(0, length);
    }

    public void AddField(in HeaderField field)
    {
        if (FieldCount == _fields.Length)
        {
            Array.Resize(ref _fields, _fields.Length * 2);
        }

        _fields[FieldCount++] = field;
    }

    public void MarkField(int index, FieldKind kind) => _fields[index].Kind = kind;
}
