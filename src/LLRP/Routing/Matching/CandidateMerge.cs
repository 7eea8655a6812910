namespace LLRP.Routing;

/// <summary>The ranks of up to four ascending lists of candidate routes, walked together in ascending order.</summary>
internal ref struct CandidateMerge(ReadOnlySpan<int> first, ReadOnlySpan<int> second, ReadOnlySpan<int> third, ReadOnlySpan<int> fourth)
{
    private ReadOnlySpan<int> _first = first;
    private ReadOnlySpan<int> _second = second;
    private ReadOnlySpan<int> _third = third;
    private ReadOnlySpan<int> _fourth = fourth;

    public bool TryNext(out int rank)
    {
        rank = Math.Min(Math.Min(Head(_first), Head(_second)), Math.Min(Head(_third), Head(_fourth)));
        if (rank == int.MaxValue)
        {
            return false;
        }

        Skip(ref _first, rank);
        Skip(ref _second, rank);
        Skip(ref _third, rank);
        Skip(ref _fourth, rank);
        return true;
    }

    private static int Head(ReadOnlySpan<int> list) => list.IsEmpty ? int.MaxValue : list[0];

    private static void Skip(ref ReadOnlySpan<int> list, int rank)
    {
        if (!list.IsEmpty && list[0] == rank)
        {
            list = list[1..];
        }
    }
}
