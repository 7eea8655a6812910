namespace LLRP.Tcp.Loop;

/// <summary>
/// The deadlines of one relay loop's relays, in a wheel of <see cref="Slots"/> slots of one tick each: a relay waits in the
/// slot of its deadline's tick (a list linked through the relays themselves), and a tick looks only at the slots whose time
/// has come, so that its cost grows with the relays due, not with the relays open. A deadline only ever moves later while
/// a relay waits (the idle timeout's, with each byte moved), so a relay is not moved on activity: its slot's tick finds it
/// not yet due and puts it in the slot of its deadline then. A deadline past the wheel's turn waits in its last slot and
/// goes round again. Used on the loop's thread only.
/// </summary>
internal sealed class RelayDeadlines
{
    /// <summary>Ticks in one turn of the wheel: 102.4 s at 100 ms a tick.</summary>
    private const int Slots = 1024;

    private readonly LoopRelay?[] _slots = new LoopRelay?[Slots];
    private readonly List<LoopRelay> _due = [];
    private readonly int _tickMs;
    private long _tick;

    /// <param name="tickMs">The tick's length, in ms.</param>
    /// <param name="now">The time now, in ms (<see cref="Environment.TickCount64"/>).</param>
    public RelayDeadlines(int tickMs, long now)
    {
        _tickMs = tickMs;
        _tick = now / tickMs;
    }

    /// <summary>(Re)places <paramref name="relay"/> by its <see cref="LoopRelay.Deadline"/>; a relay with none leaves the wheel.</summary>
    public void Schedule(LoopRelay relay)
    {
        Remove(relay);
        var deadline = relay.Deadline;
        if (deadline == long.MaxValue)
        {
            return;
        }

        // The first tick at or after the deadline, and never the one being handled: the next one at the earliest.
        var tick = Math.Clamp((deadline + _tickMs - 1) / _tickMs, _tick + 1, _tick + Slots);
        var slot = (int)(tick % Slots);
        relay.DeadlineSlot = slot;
        relay.NextDue = _slots[slot];
        if (_slots[slot] is { } first)
        {
            first.PreviousDue = relay;
        }

        _slots[slot] = relay;
    }

    /// <summary>Takes <paramref name="relay"/> out of the wheel, if it is in it.</summary>
    public void Remove(LoopRelay relay)
    {
        if (relay.DeadlineSlot < 0)
        {
            return;
        }

        if (relay.PreviousDue is null)
        {
            _slots[relay.DeadlineSlot] = relay.NextDue;
        }
        else
        {
            relay.PreviousDue.NextDue = relay.NextDue;
        }

        if (relay.NextDue is not null)
        {
            relay.NextDue.PreviousDue = relay.PreviousDue;
        }

        relay.PreviousDue = null;
        relay.NextDue = null;
        relay.DeadlineSlot = -1;
    }

    /// <summary>
    /// Hands <paramref name="now"/> to the relays of every slot whose tick has come since the last call (<see cref="LoopRelay.OnTick"/>
    /// ends those past their deadline), and places those left by their deadline again.
    /// </summary>
    public void Tick(long now)
    {
        var until = now / _tickMs;
        for (var ticks = 0; _tick < until && ticks < Slots; ticks++)
        {
            _tick++;
            TakeSlot((int)(_tick % Slots));
        }

        _tick = Math.Max(_tick, until);

        // Out of the wheel before any runs: a relay's end, or its next step, may place another of them again.
        foreach (var relay in _due)
        {
            if (relay.IsOver || relay.DeadlineSlot >= 0)
            {
                continue;
            }

            relay.OnTick(now);
            if (!relay.IsOver)
            {
                Schedule(relay);
            }
        }

        _due.Clear();
    }

    private void TakeSlot(int slot)
    {
        for (var relay = _slots[slot]; relay is not null;)
        {
            var next = relay.NextDue;
            relay.PreviousDue = null;
            relay.NextDue = null;
            relay.DeadlineSlot = -1;
            _due.Add(relay);
            relay = next;
        }

        _slots[slot] = null;
    }
}
