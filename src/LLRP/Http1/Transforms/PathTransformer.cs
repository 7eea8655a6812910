using System.Text;
using LLRP.Configuration.Routes;

namespace LLRP.Http1.Transforms;

/// <summary>Applies one path transform (YARP's meanings) to a path as received: percent-encoded, without the query.</summary>
internal static class PathTransformer
{
    /// <summary>Writes the transformed <paramref name="path"/> into <paramref name="destination"/> and returns its length.</summary>
    /// <param name="step">The transform.</param>
    /// <param name="path">The path so far.</param>
    /// <param name="original">The path as the client sent it, which the captures refer to.</param>
    /// <param name="captures">The route's captures, by parameter index.</param>
    /// <param name="destination">Large enough for the result.</param>
    public static int Apply(in PathStep step, ReadOnlySpan<byte> path, ReadOnlySpan<byte> original, ReadOnlySpan<Range> captures, Span<byte> destination)
    {
        switch (step.Kind)
        {
            case PathTransformKind.Prefix:
                step.Value.CopyTo(destination);
                path.CopyTo(destination[step.Value.Length..]);
                return step.Value.Length + path.Length;
            case PathTransformKind.RemovePrefix:
                var rest = StartsWithSegments(path, step.Value) ? path[step.Value.Length..] : path;
                rest.CopyTo(destination);
                return rest.Length;
            case PathTransformKind.Set:
                step.Value.CopyTo(destination);
                return step.Value.Length;
            case PathTransformKind.Pattern:
                var length = 0;
                foreach (var piece in step.Pattern)
                {
                    var bytes = piece.Capture < 0 ? piece.Literal
                        : piece.Capture < captures.Length ? original[captures[piece.Capture]]
                        : default;
                    bytes.CopyTo(destination[length..]);
                    length += bytes.Length;
                }

                return length;
        }

        throw new ArgumentOutOfRangeException(nameof(step), step.Kind, null);
    }

    /// <summary>
    /// <paramref name="path"/> starts with <paramref name="prefix"/> as whole segments, without regard to case, as
    /// ASP.NET Core's <c>PathString.StartsWithSegments</c>: <c>/api</c> is a prefix of <c>/api</c> and <c>/api/x</c>, not of <c>/apix</c>.
    /// </summary>
    public static bool StartsWithSegments(ReadOnlySpan<byte> path, ReadOnlySpan<byte> prefix)
        => path.Length >= prefix.Length
           && Ascii.EqualsIgnoreCase(path[..prefix.Length], prefix)
           && (path.Length == prefix.Length || path[prefix.Length] == (byte)'/' || (prefix.Length > 0 && prefix[^1] == (byte)'/'));
}
