using System.Buffers;
using System.IO.Pipelines;

namespace LLRP.Http1;

/// <summary>
/// A <see cref="PipeWriter"/> as a struct <see cref="IBufferWriter{T}"/>, so that <see cref="BufferWriter{TWriter}"/>
/// over it is specialised by the JIT and calls the pipe's methods directly instead of through the interface.
/// </summary>
internal readonly struct PipeWriterAdapter(PipeWriter output) : IBufferWriter<byte>
{
    public void Advance(int count) => output.Advance(count);

    public Memory<byte> GetMemory(int sizeHint = 0) => output.GetMemory(sizeHint);

    public Span<byte> GetSpan(int sizeHint = 0) => output.GetSpan(sizeHint);
}
