using LLRP.Configuration.Routes;

namespace LLRP.Http1.Transforms;

/// <summary>One compiled query transform.</summary>
/// <param name="Action">Set, Append or Remove.</param>
/// <param name="Name">The parameter name as compared: percent-decoded.</param>
/// <param name="Encoded">What Set and Append write: the encoded name, '=', the encoded value.</param>
internal readonly record struct QueryStep(TransformAction Action, byte[] Name, byte[] Encoded);
