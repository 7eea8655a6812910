using System.Buffers;
using System.Buffers.Text;
using System.Runtime.CompilerServices;

namespace LLRP.Http1;

/// <summary>
/// Writes into the current span of an <see cref="IBufferWriter{T}"/> and advances it once, on <see cref="Commit"/>.
/// Generic over the writer so pipe writers are called without interface dispatch.
/// </summary>
internal ref struct BufferWriter<TWriter>
    where TWriter : IBufferWriter<byte>
{
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
