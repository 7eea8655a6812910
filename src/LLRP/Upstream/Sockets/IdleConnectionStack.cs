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
}
