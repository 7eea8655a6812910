using LLRP.Http1;
using LLRP.Upstream.HttpClient;

namespace LLRP.Upstream.LightContext;

/// <summary>Puts the fields the <see cref="RequestRewriter"/> gives into a <see cref="FieldDictionary"/>, as strings cached by position.</summary>
internal struct DictionaryFieldSink(FieldDictionary fields, FieldStringCache strings) : IFieldSink
{
    private int _index;

    public void Field(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        fields.Append(strings.Name(_index, name), strings.Value(_index, value));
        _index++;
    }
}
