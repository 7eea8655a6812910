namespace LLRP.Http1;

/// <summary>Finds the dot-segments of a path (RFC 3986 §3.3): a segment that is <c>.</c> or <c>..</c>, each dot plain or percent-encoded (<c>%2E</c>).</summary>
internal static class DotSegments
{
    /// <summary>True when the path of <paramref name="target"/> (before any <c>?</c>) has a dot-segment.</summary>
    public static bool In(ReadOnlySpan<byte> target)
    {
        var question = target.IndexOf((byte)'?');
        var path = question < 0 ? target : target[..question];
        while (!path.IsEmpty)
        {
            var slash = path.IndexOf((byte)'/');
            var segment = slash < 0 ? path : path[..slash];
            if (IsDotSegment(segment))
            {
                return true;
            }

            path = slash < 0 ? default : path[(slash + 1)..];
        }

        return false;
    }

    private static bool IsDotSegment(ReadOnlySpan<byte> segment)
    {
        var dots = 0;
        while (!segment.IsEmpty)
        {
            if (segment[0] == (byte)'.')
            {
                segment = segment[1..];
            }
            else if (segment.Length >= 3 && segment[0] == (byte)'%' && segment[1] == (byte)'2' && (segment[2] | 0x20) == (byte)'e')
            {
                segment = segment[3..];
            }
            else
            {
                return false;
            }

            dots++;
        }

        return dots is 1 or 2;
    }
}
