namespace LLRP.Configuration.Routes;

/// <summary>One query transform: <c>QueryValueParameter</c> with <c>Set</c> or <c>Append</c>, or <c>QueryRemoveParameter</c>.</summary>
/// <param name="Action">Set (replace every occurrence, or add), Append (add one more), Remove (drop every occurrence).</param>
/// <param name="Name">The parameter name, compared without regard to case after percent-decoding.</param>
/// <param name="Value">The value, percent-encoded when sent; empty for Remove.</param>
public sealed record QueryTransformOptions(TransformAction Action, string Name, string Value);
