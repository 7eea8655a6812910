namespace LLRP.Fuzz;

/// <summary>A target's own check failed: the whole and the segmented input disagree, or a result breaks an invariant.</summary>
internal sealed class OracleViolation(string message) : Exception(message)
{
    public static void ThrowIfDifferent<T>(T whole, T segmented, int segmentLength)
    {
        if (!EqualityComparer<T>.Default.Equals(whole, segmented))
        {
            throw new OracleViolation($"whole: {whole}\nsegmented every {segmentLength} bytes: {segmented}");
        }
    }
}
