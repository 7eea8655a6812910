using System.Text;
using LLRP.Http1;

namespace LLRP.Tests.Http1;

/// <summary>Records the fields given to it as <c>name: value</c>, separated by '|'.</summary>
internal struct FieldRecorder() : IFieldSink
{
    private readonly StringBuilder _fields = new();

    public readonly void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
        => _fields.Append(_fields.Length == 0 ? "" : "|").Append(Encoding.Latin1.GetString(name)).Append(": ").Append(Encoding.Latin1.GetString(value));

    public override readonly string ToString() => _fields.ToString();
}
