namespace LLRP.Proxy;

/// <summary>
/// When a client connection has waited too long, decided exactly once. The session sets a deadline before it waits for
/// the client and takes it back when bytes arrive; the heartbeat (or shutdown) claims a passed deadline and then
/// cancels the pending read. Both sides change the value atomically, so a read is never cancelled once the session
/// took the deadline back, and the session always learns that its wait was claimed.
/// </summary>
internal sealed class ConnectionDeadline
{
    private const long Busy = long.MaxValue;
    private const long Claimed = long.MinValue;

    private long _value = Busy;

    /// <summary>
    /// The session waits for the client until <paramref name="deadline"/> (<see cref="Environment.TickCount64"/>). A full
    /// fence: a stop flag read after this sees a stop that found no deadline to claim.
    /// </summary>
    public void WaitUntil(long deadline) => Interlocked.Exchange(ref _value, deadline);

    /// <summary>The session got bytes and works; false when the wait had been claimed meanwhile (its read is, or will be, cancelled).</summary>
    public bool TakeBack() => Interlocked.Exchange(ref _value, Busy) != Claimed;

    /// <summary>Claims the wait if the session is waiting and, unless <paramref name="now"/> is null, its deadline passed.</summary>
    public bool TryClaim(long? now)
    {
        var deadline = Volatile.Read(ref _value);
        return deadline != Busy && deadline != Claimed && (now is not { } time || deadline < time)
            && Interlocked.CompareExchange(ref _value, Claimed, deadline) == deadline;
    }
}
