using System.Buffers;
using LLRP.Http1;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// Reads the trailer section that follows a chunked body's last chunk (RFC 9112 §7.1.2: field lines, then an empty line)
/// within the trailer limit, and gives on the fields <see cref="TrailerFields"/> lets through. Reused response after
/// response by its owner.
/// </summary>
/// <param name="maxSize">The most bytes the section may take (<see cref="BodyLimits.MaxTrailerSize"/>).</param>
internal sealed class TrailerSectionReader(int maxSize)
{
    /// <summary>The most fields a trailer section may have (as many as a response head).</summary>
    private const int MaxFields = 1000;

    private readonly ResponseHead _section = new();

    /// <summary>
    /// Parses the section at the start of <paramref name="data"/> and moves <paramref name="data"/> past it; false while
    /// it is not all in. Throws <see cref="HttpMessageException"/> for a section that is invalid or over the limit.
    /// </summary>
    public bool TryRead(ref ReadOnlySequence<byte> data)
    {
        var section = _section;
        section.Reset();
        ReadOnlySpan<byte> span;
        if (data.IsSingleSegment)
        {
            span = data.FirstSpan;
            section.SetSource(data.First);
        }
        else
        {
            span = section.Linearize(data, (int)Math.Min(data.Length, maxSize));
        }

        if (!FieldSectionParser.TryParse(span, 0, maxSize, MaxFields, section, out var length))
        {
            return false;
        }

        data = data.Slice(length);
        return true;
    }

    /// <summary>Gives <paramref name="sink"/> the fields of the section <see cref="TryRead"/> read that may be relayed, in order.</summary>
    public void Relay<TSink>(ref TSink sink)
        where TSink : IFieldSink, allows ref struct
    {
        var source = _section.Source.Span;
        foreach (ref readonly var field in _section.Fields)
        {
            if (TrailerFields.MayRelay(field.Name(source)))
            {
                sink.Field(field.Name(source), field.Value(source));
            }
        }
    }
}
