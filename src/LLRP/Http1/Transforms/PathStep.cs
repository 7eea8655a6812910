using LLRP.Configuration.Routes;

namespace LLRP.Http1.Transforms;

/// <summary>One compiled path transform.</summary>
/// <param name="Kind">Which.</param>
/// <param name="Value">The prefix or path, as sent (percent-encoded as configured); for a pattern, unused.</param>
/// <param name="Pattern">For <see cref="PathTransformKind.Pattern"/>: literal pieces and captures, in order.</param>
internal readonly record struct PathStep(PathTransformKind Kind, byte[] Value, PatternPiece[] Pattern);
