using System.Buffers;

namespace LLRP.Tests.Infrastructure;

/// <summary>An <see cref="IBufferWriter{T}"/> that hands out the smallest span it may, so writers take their multi-buffer path.</summary>
internal sealed class TinySpanBufferWriter : IBufferWriter<byte>
{
    private readonly ArrayBufferWriter<byte> _inner = new();

    public ReadOnlySpan<byte> WrittenSpan => _inner.WrittenSpan;

    public int AdvanceCount { get; private set; }

    public void Advance(int count)
    {
        AdvanceCount++;
        _inner.Advance(count);
    }

    public Memory<byte> GetMemory(int sizeHint = 0) => _inner.GetMemory(sizeHint)[..Math.Max(sizeHint, 1)];

    public Span<byte> GetSpan(int sizeHint = 0) => _inner.GetSpan(sizeHint)[..Math.Max(sizeHint, 1)];
}
