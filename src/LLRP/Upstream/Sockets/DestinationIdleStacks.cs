namespace LLRP.Upstream.Sockets;

/// <summary>
/// The idle stacks of one destination in the shared pool, one per event loop that served a connection returned to it
/// (slot <c>loop + 1</c>; slot 0 for connections no loop serves), each made on first use. A rent finds its loop's stack by
/// index, where a dictionary keyed by destination and loop hashed and compared the pair through shared generic code.
/// </summary>
/// <param name="capacity">The most idle connections each stack keeps.</param>
internal sealed class DestinationIdleStacks(int capacity)
{
    private readonly Lock _growing = new();
    private volatile IdleConnectionStack?[] _byLoop = new IdleConnectionStack?[2];

    /// <summary>The stacks made so far, one slot per loop (some null); a snapshot, taken without a lock.</summary>
    public IdleConnectionStack?[] Slots => _byLoop;

    /// <summary>The stack of <paramref name="loop"/>'s connections, or null when none was ever returned.</summary>
    public IdleConnectionStack? Of(int loop)
    {
        var slots = _byLoop;
        var slot = loop + 1;
        return (uint)slot < (uint)slots.Length ? Volatile.Read(ref slots[slot]) : null;
    }

    /// <summary>The stack of <paramref name="loop"/>'s connections, made (and the slots grown) the first time.</summary>
    public IdleConnectionStack For(int loop) => Of(loop) ?? Add(loop);

    private IdleConnectionStack Add(int loop)
    {
        lock (_growing)
        {
            var slots = _byLoop;
            var slot = loop + 1;
            if (slot >= slots.Length)
            {
                // Every slot is written under this lock, into the array published last: a copy misses none.
                var grown = new IdleConnectionStack?[Math.Max(slot + 1, slots.Length * 2)];
                Array.Copy(slots, grown, slots.Length);
                _byLoop = slots = grown;
            }

            if (slots[slot] is { } made)
            {
                return made;
            }

            var stack = new IdleConnectionStack(capacity);
            Volatile.Write(ref slots[slot], stack);
            return stack;
        }
    }
}
