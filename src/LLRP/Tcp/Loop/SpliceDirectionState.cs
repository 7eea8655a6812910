namespace LLRP.Tcp.Loop;

/// <summary>
/// What a <see cref="SpliceDirection"/> knows of one connection's bytes: made new in one assignment when its relay begins
/// a connection, so a direction taken again from its loop starts every field as new, a field added here included. The
/// pooled parts (the pipe, taken and given back while bytes are in flight) and the posted resumption stay on the direction.
/// </summary>
internal struct SpliceDirectionState
{
    /// <summary>Bytes received that the destination had no room for, in an array rented for them, from <see cref="UnsentOffset"/> to <see cref="UnsentLength"/>.</summary>
    public byte[]? Unsent;

    public int UnsentOffset;

    public int UnsentLength;

    /// <summary>Bytes in the pipe, not yet spliced to the destination.</summary>
    public nint Pending;

    /// <summary>The last receive filled the buffer: the source's bytes go by splice until it would block.</summary>
    public bool Bulk;

    /// <summary>Bytes read from the source since it was last read dry.</summary>
    public long Burst;

    /// <summary>The transfer turned long: its bulk is copied, not spliced, for the rest of the connection.</summary>
    public bool CopiesBulk;

    /// <summary><c>TCP_NOTSENT_LOWAT</c> was set on the destination (once per connection).</summary>
    public bool UnsentBounded;

    /// <inheritdoc cref="SpliceDirection.WaitsForDestination"/>
    public bool WaitsForDestination;

    /// <summary>The loop does not report the source's bytes to read: they wait for the destination's room (<see cref="SpliceDirection.WaitsForDestination"/>).</summary>
    public bool SourceUnwatched;

    /// <inheritdoc cref="SpliceDirection.SourceClosing"/>
    public bool SourceClosing;

    /// <inheritdoc cref="SpliceDirection.SourceFinished"/>
    public bool SourceFinished;

    /// <inheritdoc cref="SpliceDirection.Ended"/>
    public bool Ended;
}
