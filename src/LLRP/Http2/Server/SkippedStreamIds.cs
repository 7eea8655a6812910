namespace LLRP.Http2.Server;

/// <summary>
/// The client's stream ids it never opened: the ones it skipped when it opened a higher one, closed by that (RFC 9113
/// §5.1.1), kept as ranges, so HEADERS on one is told from HEADERS on a stream that was opened and closed. Keeps the last
/// <see cref="Capacity"/> ranges, the oldest forgotten first.
/// </summary>
internal sealed class SkippedStreamIds
{
    public const int Capacity = 256;

    private readonly Queue<(int From, int To)> _ranges = new();

    /// <summary>The client opened <paramref name="id"/> after <paramref name="highest"/> (0 for none): the odd ids between were skipped.</summary>
    public void OnOpened(int highest, int id)
    {
        var from = highest == 0 ? 1 : highest + 2;
        if (from > id - 2)
        {
            return;
        }

        _ranges.Enqueue((from, id - 2));
        if (_ranges.Count > Capacity)
        {
            _ranges.Dequeue();
        }
    }

    public bool Contains(int id)
    {
        foreach (var (from, to) in _ranges)
        {
            if (id >= from && id <= to)
            {
                return true;
            }
        }

        return false;
    }
}
