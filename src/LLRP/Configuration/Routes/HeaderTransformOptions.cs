namespace LLRP.Configuration.Routes;

/// <summary>One header transform: <c>RequestHeader</c>/<c>ResponseHeader</c> with <c>Set</c> or <c>Append</c>, or <c>…HeaderRemove</c>.</summary>
/// <param name="Action">Set (replace every line of the field, or add it), Append (add one more line), Remove (drop every line).</param>
/// <param name="Name">A field name (a token); the fields the proxy owns (framing, hop-by-hop) are refused at start-up.</param>
/// <param name="Value">A valid field value; empty for Remove.</param>
/// <param name="When">Responses only: which responses it applies to (YARP's default is Success).</param>
public sealed record HeaderTransformOptions(TransformAction Action, string Name, string Value, ResponseCondition When);
