using LLRP.Http1;

namespace LLRP.Routing;

/// <summary>
/// Routes by the first segment of their template: a route whose template starts with a literal is a candidate only
/// for paths whose first segment, decoded, is that literal (ignoring ASCII case); the others are candidates for every
/// path. Routes are named by rank (their place in precedence order), ascending in each list.
/// </summary>
internal sealed class SegmentIndex
{
    /// <summary>Literals up to this long are indexed (and first segments decoded on the stack); longer ones are tried for every path.</summary>
    public const int MaxKeyLength = 128;

    private readonly ByteKeyTable<int[]> _byFirstSegment;

    /// <param name="routes">Ranks ascending, with their templates.</param>
    public SegmentIndex(IEnumerable<(int Rank, RouteTemplate Template)> routes)
    {
        var byKey = new Dictionary<string, (byte[] Key, List<int> Ranks)>(StringComparer.Ordinal);
        var others = new List<int>();
        foreach (var (rank, template) in routes)
        {
            var first = template.Segments.Length > 0 ? template.Segments[0].Literal : null;
            if (first is null || first.Length > MaxKeyLength)
            {
                others.Add(rank);
                continue;
            }

            var folded = AsciiCase.FoldedKey(first);
            if (!byKey.TryGetValue(folded, out var entry))
            {
                byKey[folded] = entry = (first, []);
            }

            entry.Ranks.Add(rank);
        }

        _byFirstSegment = new ByteKeyTable<int[]>([.. byKey.Values.Select(e => KeyValuePair.Create(e.Key, e.Ranks.ToArray()))]);
        Others = [.. others];
    }

    /// <summary>Routes that are candidates whatever the first segment.</summary>
    public int[] Others { get; }

    /// <summary>Routes whose template starts with <paramref name="firstSegment"/> (decoded).</summary>
    public ReadOnlySpan<int> StartingWith(ReadOnlySpan<byte> firstSegment) => _byFirstSegment.Find(firstSegment);
}
