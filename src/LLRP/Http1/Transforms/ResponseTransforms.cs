namespace LLRP.Http1.Transforms;

/// <summary>A route's response header transforms, compiled to bytes: applied by <see cref="ResponseHeadWriter"/> to final responses, in every mode.</summary>
internal sealed class ResponseTransforms(HeaderStep[] headers)
{
    public static ResponseTransforms None { get; } = new([]);

    public HeaderStep[] Headers { get; } = headers;

    public bool IsEmpty => Headers.Length == 0;

    /// <summary>The most bytes the transforms add to a head.</summary>
    public int Overhead { get; } = headers.Sum(step => step.Name.Length + step.Value.Length + 4);

    /// <summary>True when a step that applies to <paramref name="status"/> replaces or drops the field <paramref name="name"/>.</summary>
    public bool DropsField(ReadOnlySpan<byte> name, int status)
    {
        foreach (ref readonly var step in Headers.AsSpan())
        {
            if (step.DropsReceived && step.AppliesTo(status) && System.Text.Ascii.EqualsIgnoreCase(name, step.Name))
            {
                return true;
            }
        }

        return false;
    }
}
