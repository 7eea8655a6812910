namespace LLRP.Downstream;

/// <summary>
/// The position-deterministic body every pattern endpoint sends: the byte at position <c>i</c> is
/// <c>'a' + (i % 26)</c>. Responses are sliced out of one cached array, never allocated per request.
/// </summary>
public static class BodyPattern
{
    /// <summary>The largest slice handed out at once; big bodies are written in blocks of this size.</summary>
    public const int BlockSize = 64 * 1024;

    private const int Period = 26;

    private static readonly byte[] _source = CreateSource();

    /// <summary>Fills <paramref name="destination"/> with the pattern bytes starting at body position <paramref name="offset"/>.</summary>
    public static void Fill(Span<byte> destination, long offset)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        while (!destination.IsEmpty)
        {
            var count = Math.Min(destination.Length, BlockSize);
            Slice(offset, count).Span.CopyTo(destination);
            destination = destination[count..];
            offset += count;
        }
    }

    /// <summary>
    /// The pattern bytes at body positions <c>[offset, offset + count)</c>; <paramref name="count"/>
    /// is at most <see cref="BlockSize"/>.
    /// </summary>
    internal static ReadOnlyMemory<byte> Slice(long offset, int count) =>
        _source.AsMemory((int)(offset % Period), count);

    private static byte[] CreateSource()
    {
        var source = new byte[BlockSize + Period - 1];
        for (var i = 0; i < source.Length; i++)
        {
            source[i] = (byte)('a' + (i % Period));
        }

        return source;
    }
}
