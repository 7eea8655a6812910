namespace LLRP.Http1.Transforms;

/// <summary>A piece of a <c>PathPattern</c>: literal bytes, or the path segment(s) a route parameter captured.</summary>
/// <param name="Literal">The bytes written as they are, when <paramref name="Capture"/> is -1.</param>
/// <param name="Capture">The index of the route's capture written in its place, or -1.</param>
internal readonly record struct PatternPiece(byte[] Literal, int Capture)
{
    /// <summary>Most parameters a route template may capture.</summary>
    public const int MaxCaptures = 8;
}
