namespace LLRP.Http2.Server;

/// <summary>
/// The last streams reset on either side, whose late frames are ignored (RFC 9113 §5.1, "closed": the peer may have
/// sent them before it learnt of the reset) where a frame on another closed stream is a connection error. Keeps at most
/// <see cref="Capacity"/> ids, the oldest forgotten first.
/// </summary>
internal sealed class RecentStreamIds
{
    public const int Capacity = 1024;

    private readonly HashSet<int> _ids = [];
    private readonly Queue<int> _order = new();

    public void Add(int id)
    {
        if (!_ids.Add(id))
        {
            return;
        }

        _order.Enqueue(id);
        if (_order.Count > Capacity)
        {
            _ids.Remove(_order.Dequeue());
        }
    }

    public bool Contains(int id) => _ids.Contains(id);
}
