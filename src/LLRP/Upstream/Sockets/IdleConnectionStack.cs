namespace LLRP.Upstream.Sockets;

/// <summary>A bounded LIFO of idle connections; a lock and an array, so returning a connection allocates nothing.</summary>
internal sealed class IdleConnectionStack(int capacity)
{
    private readonly Lock _lock = new();
    private readonly UpstreamConnection[] _items = new UpstreamConnection[capacity];
    private int _count;

    public bool TryPop(out UpstreamConnection connection)
    {
        lock (_lock)
        {
            if (_count == 0)
            {
                connection = null!;
                return false;
            }

            connection = _items[--_count];
            _items[_count] = null!;
            return true;
        }
    }

    public bool TryPush(UpstreamConnection connection)
    {
        lock (_lock)
        {
            if (_count == _items.Length)
            {
                return false;
            }

            _items[_count++] = connection;
            return true;
        }
    }

    /// <summary>Removes the connections idle since before <paramref name="cutoff"/> (the oldest sit at the bottom) and returns how many.</summary>
    public int RemoveIdleSince(long cutoff, Span<UpstreamConnection> removed)
    {
        lock (_lock)
        {
            var expired = 0;
            while (expired < _count && expired < removed.Length && _items[expired].IdleSince < cutoff)
            {
                removed[expired] = _items[expired];
                expired++;
            }

            if (expired > 0)
            {
                Array.Copy(_items, expired, _items, 0, _count - expired);
                Array.Clear(_items, _count - expired, expired);
                _count -= expired;
            }

            return expired;
        }
    }
}
