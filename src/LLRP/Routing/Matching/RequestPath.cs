using LLRP.Configuration.Routes;
namespace LLRP.Routing;

/// <summary>
/// A request path cut into segments at '/', once per match. A trailing '/' is ignored, as ASP.NET Core's routing
/// does: <c>/api/</c> has the one segment <c>api</c>. The asterisk-form (<c>*</c>) has no segment.
/// </summary>
internal readonly ref struct RequestPath
{
    /// <summary>Segments kept; a template has at most one fewer (<see cref="RouteTemplateSyntax.MaxSegments"/>).</summary>
    public const int Capacity = RouteTemplateSyntax.MaxSegments + 1;

    private readonly Span<Range> _segments;

    public RequestPath(ReadOnlySpan<byte> path, Span<Range> segments)
    {
        Bytes = path;
        _segments = segments;
        IsAsterisk = path.Length == 1 && path[0] == (byte)'*';
        if (IsAsterisk)
        {
            return;
        }

        var start = path.Length > 0 && path[0] == (byte)'/' ? 1 : 0;
        var count = 0;
        while (start < path.Length && count < segments.Length)
        {
            var slash = path[start..].IndexOf((byte)'/');
            var end = slash < 0 ? path.Length : start + slash;
            segments[count++] = new Range(start, end);
            start = end + 1;
        }

        Count = count;
        HasMore = start < path.Length;
    }

    public ReadOnlySpan<byte> Bytes { get; }

    /// <summary>Segments kept, at most <see cref="Capacity"/>.</summary>
    public int Count { get; }

    /// <summary>The path has more segments than were kept.</summary>
    public bool HasMore { get; }

    public bool IsAsterisk { get; }

    public Range this[int index] => _segments[index];

    public ReadOnlySpan<byte> Segment(int index) => Bytes[_segments[index]];

    /// <summary>Where segment <paramref name="index"/> starts, or the end of the path when there is no such segment.</summary>
    public int StartOf(int index) => index < Count ? _segments[index].Start.Value : Bytes.Length;
}
