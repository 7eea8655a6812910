using System.Buffers;
using LLRP.Http1;

namespace LLRP.Http2.Server;

/// <summary>
/// A request's head written as HTTP/1.1 bytes while its fields are decoded, for the HTTP/1.1 parser the front end
/// reads every request with (<see cref="RequestHeadParser"/>): the request line and <c>Host</c> from the pseudo-header
/// fields (<c>:path</c> and <c>:authority</c> kept as bytes until the regular fields start), each regular field as a
/// field line in the order received, the cookie fields joined into one line (RFC 9113 §8.2.3), and
/// <c>Transfer-Encoding: chunked</c> when a body without a <c>content-length</c> may follow. The field lines are
/// remembered, so the same fields can be made strings later for whoever asks for them. Used by one stream object at a
/// time.
/// </summary>
internal sealed class RequestHeadBytes
{
    private readonly ArrayBufferWriter<byte> _bytes = new(1024);
    private readonly ArrayBufferWriter<byte> _cookies = new(256);
    private readonly ArrayBufferWriter<byte> _target = new(256);
    private readonly ArrayBufferWriter<byte> _authority = new(64);
    private readonly List<(int Start, int NameLength, int ValueLength)> _lines = new(16);

    /// <summary>The head so far: after <see cref="End"/>, the whole head with its empty line.</summary>
    public ReadOnlyMemory<byte> Written => _bytes.WrittenMemory;

    /// <summary>How many field lines were written (<c>Transfer-Encoding</c> added for the framing not counted).</summary>
    public int FieldCount => _lines.Count;

    /// <summary><c>:path</c> as received.</summary>
    public ReadOnlySpan<byte> Target => _target.WrittenSpan;

    public bool HasAuthority { get; private set; }

    public ReadOnlySpan<byte> Authority => _authority.WrittenSpan;

    public void Reset()
    {
        _bytes.ResetWrittenCount();
        _cookies.ResetWrittenCount();
        _target.ResetWrittenCount();
        _authority.ResetWrittenCount();
        _lines.Clear();
        HasAuthority = false;
    }

    public void SetTarget(ReadOnlySpan<byte> target) => _target.Write(target);

    public void SetAuthority(ReadOnlySpan<byte> authority)
    {
        _authority.Write(authority);
        HasAuthority = true;
    }

    /// <summary>The request line (<paramref name="method"/>, <see cref="Target"/>) and, for an <c>:authority</c>, <c>Host</c> with its value (RFC 9113 §8.3.1).</summary>
    public void Start(string method)
    {
        var target = Target;
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_bytes, method.Length + target.Length + 12);
        writer.WriteLatin1(method);
        writer.Write(" "u8);
        writer.Write(target);
        writer.Write(" HTTP/1.1\r\n"u8);
        writer.Commit();
        if (HasAuthority)
        {
            Add("host"u8, Authority);
        }
    }

    public void Add(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        _lines.Add((_bytes.WrittenCount, name.Length, value.Length));
        Append(name, value);
    }

    /// <summary>A <c>cookie</c> field: its value joins the others' with "; " (RFC 9113 §8.2.3) in one line written at <see cref="End"/>.</summary>
    public void AddCookie(ReadOnlySpan<byte> value)
    {
        if (_cookies.WrittenCount > 0)
        {
            _cookies.Write("; "u8);
        }

        _cookies.Write(value);
    }

    /// <summary>Ends the head: the joined cookie line, <c>Transfer-Encoding: chunked</c> when <paramref name="chunked"/>, the empty line.</summary>
    public void End(bool chunked)
    {
        if (_cookies.WrittenCount > 0)
        {
            Add("cookie"u8, _cookies.WrittenSpan);
        }

        if (chunked)
        {
            _bytes.Write("Transfer-Encoding: chunked\r\n"u8);
        }

        _bytes.Write("\r\n"u8);
    }

    /// <summary>Field line <paramref name="index"/>'s name and value, as written.</summary>
    public (ReadOnlyMemory<byte> Name, ReadOnlyMemory<byte> Value) Field(int index)
    {
        var (start, nameLength, valueLength) = _lines[index];
        var line = _bytes.WrittenMemory[start..];
        return (line[..nameLength], line.Slice(nameLength + 2, valueLength));
    }

    private void Append(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_bytes, name.Length + value.Length + 4);
        writer.Field(name, value);
        writer.Commit();
    }
}
