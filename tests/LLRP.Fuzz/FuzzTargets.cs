namespace LLRP.Fuzz;

/// <summary>The fuzzing targets by name.</summary>
internal static class FuzzTargets
{
    private static readonly Dictionary<string, Action<byte[]>> Targets = new(StringComparer.Ordinal)
    {
        ["request-head"] = RequestHeadTarget.Run,
        ["response-head"] = ResponseHeadTarget.Run,
        ["chunked"] = ChunkedTarget.Run,
        ["hpack"] = HpackTarget.Run,
        ["h2-connection"] = Http2ConnectionTarget.Run,
    };

    public static IEnumerable<string> Names => Targets.Keys;

    public static Action<byte[]>? Find(string name) => Targets.GetValueOrDefault(name);
}
