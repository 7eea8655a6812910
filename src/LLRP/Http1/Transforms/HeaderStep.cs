using LLRP.Configuration.Routes;

namespace LLRP.Http1.Transforms;

/// <summary>One compiled header transform.</summary>
/// <param name="Action">Set, Append or Remove.</param>
/// <param name="Name">The field name.</param>
/// <param name="Value">The value Set or Append adds.</param>
/// <param name="When">Responses only: which responses it applies to.</param>
internal readonly record struct HeaderStep(TransformAction Action, byte[] Name, byte[] Value, ResponseCondition When)
{
    /// <summary>The step replaces or drops the received lines of its field.</summary>
    public bool DropsReceived => Action != TransformAction.Append;

    /// <summary>The step applies to a response of <paramref name="status"/>.</summary>
    public bool AppliesTo(int status) => When switch
    {
        ResponseCondition.Always => true,
        ResponseCondition.Success => status < 400,
        ResponseCondition.Failure => status >= 400,
    };
}
