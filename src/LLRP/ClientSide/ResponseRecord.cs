namespace LLRP.ClientSide;

/// <summary>A final response written to the client in the current batch: its status, and for the access log its head's time and body bytes.</summary>
internal struct ResponseRecord
{
    public int Status;

    /// <summary>When its head was written (<see cref="System.Diagnostics.Stopwatch"/> ticks); 0 unless the access log is on.</summary>
    public long HeadTimestamp;

    /// <summary>Body bytes written so far, without chunk framing; 0 unless the access log is on.</summary>
    public long BodyBytes;
}
