using System.Buffers;
using System.Buffers.Text;
using System.Runtime.CompilerServices;
using System.Text;

namespace LLRP.Http1;

/// <summary>
/// Writes into the current span of an <see cref="IBufferWriter{T}"/> and advances it once, on <see cref="Commit"/>.
/// Generic over the writer: with a struct writer (<see cref="PipeWriterAdapter"/>) the calls are direct, with a
/// class or an interface they dispatch. As an <see cref="IFieldSink"/> it writes field lines.
/// </summary>
internal ref struct BufferWriter<TWriter> : IFieldSink
    where TWriter : IBufferWriter<byte>
{
    private const int Latin1StackLimit = 256;

    private readonly TWriter _output;
    private Span<byte> _span;
    private int _buffered;

    public BufferWriter(TWriter output, int sizeHint)
    {
        _output = output;
        _span = output.GetSpan(sizeHint);
        _buffered = 0;
    }

    /// <summary>Bytes written since this writer was created.</summary>
    public long BytesWritten { get; private set; }

    public void Commit()
    {
        if (_buffered > 0)
        {
            _output.Advance(_buffered);
            _span = _span[_buffered..];
            _buffered = 0;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Write(scoped ReadOnlySpan<byte> source)
    {
        if (_span.Length - _buffered >= source.Length)
        {
            source.CopyTo(_span[_buffered..]);
            _buffered += source.Length;
            BytesWritten += source.Length;
        }
        else
        {
            WriteMultiBuffer(source);
        }
    }

    public void Write(in ReadOnlySequence<byte> source)
    {
        if (source.IsSingleSegment)
        {
            Write(source.FirstSpan);
            return;
        }

        foreach (var segment in source)
        {
            Write(segment.Span);
        }
    }

    /// <summary>Writes <c>name: value</c> and CRLF.</summary>
    public void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        Write(name);
        Write(": "u8);
        Write(value);
        Write("\r\n"u8);
    }

    /// <summary>Writes a header string as Latin-1, one byte per char: the inverse of how HttpClient decodes field bytes.</summary>
    public void WriteLatin1(string value)
    {
        if (value.Length <= Latin1StackLimit)
        {
            Span<byte> bytes = stackalloc byte[Latin1StackLimit];
            Write(bytes[..Encoding.Latin1.GetBytes(value, bytes)]);
            return;
        }

        var rented = ArrayPool<byte>.Shared.Rent(value.Length);
        Write(rented.AsSpan(0, Encoding.Latin1.GetBytes(value, rented)));
        ArrayPool<byte>.Shared.Return(rented);
    }

    public void WriteDecimal(long value)
    {
        Ensure(20);
        Utf8Formatter.TryFormat(value, _span[_buffered..], out var written);
        _buffered += written;
        BytesWritten += written;
    }

    public void WriteHex(long value)
    {
        Ensure(16);
        Utf8Formatter.TryFormat((ulong)value, _span[_buffered..], out var written, new StandardFormat('X'));
        _buffered += written;
        BytesWritten += written;
    }

    private void Ensure(int count)
    {
        if (_span.Length - _buffered < count)
        {
            Commit();
            _span = _output.GetSpan(count);
        }
    }

    private void WriteMultiBuffer(scoped ReadOnlySpan<byte> source)
    {
        while (source.Length > 0)
        {
            if (_span.Length - _buffered == 0)
            {
                Commit();
                _span = _output.GetSpan();
            }

            var count = Math.Min(_span.Length - _buffered, source.Length);
            source[..count].CopyTo(_span[_buffered..]);
            _buffered += count;
            BytesWritten += count;
            source = source[count..];
        }
    }
}
