namespace LLRP.Http1;

/// <summary>A parsed response head (RFC 9112 §4). Offsets refer to <see cref="MessageHead.Source"/>.</summary>
internal sealed class ResponseHead : MessageHead
{
    public int StatusCode { get; set; }

    public int ReasonStart { get; set; }

    public int ReasonLength { get; set; }

    public ReadOnlySpan<byte> Reason => Source.Span.Slice(ReasonStart, ReasonLength);

    /// <summary>1xx: an interim response, followed by another response to the same request (RFC 9110 §15.2).</summary>
    public bool IsInterim => StatusCode < 200;

    protected override void ResetMessage()
    {
        StatusCode = 0;
        ReasonStart = 0;
        ReasonLength = 0;
    }
}
