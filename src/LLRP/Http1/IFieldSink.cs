namespace LLRP.Http1;

/// <summary>Receives the field lines of a message being forwarded, one by one, in order.</summary>
internal interface IFieldSink
{
    void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value);
}
