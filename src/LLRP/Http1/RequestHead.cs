namespace LLRP.Http1;

/// <summary>A parsed request head (RFC 9112 §3). Offsets refer to <see cref="MessageHead.Source"/>.</summary>
internal sealed class RequestHead : MessageHead
{
    public int MethodLength { get; set; }

    /// <summary>Start of the part of the target to forward: the whole origin-form, or the path and query of an absolute-form.</summary>
    public int PathStart { get; set; }

    public int PathLength { get; set; }

    /// <summary>The request target was absolute-form; its authority replaces <c>Host</c> (RFC 9112 §3.2.2).</summary>
    public bool HasAbsoluteTarget { get; set; }

    public int TargetAuthorityStart { get; set; }

    public int TargetAuthorityLength { get; set; }

    /// <summary>Index of the <c>Host</c> field, or -1.</summary>
    public int HostFieldIndex { get; set; }

    public bool IsHeadMethod { get; set; }

    /// <summary>The method is idempotent (RFC 9110 §9.2.2), so the request may be retried.</summary>
    public bool IsIdempotent { get; set; }

    /// <summary>A <c>TE</c> field listed <c>trailers</c>.</summary>
    public bool AcceptsTrailers { get; set; }

    /// <summary>An <c>Expect: 100-continue</c> field: the client waits for <c>100 Continue</c> before it sends the body (RFC 9110 §10.1.1).</summary>
    public bool ExpectsContinue { get; set; }

    /// <summary>
    /// The protocols the request asks to switch to, all tunnelled by the proxy (<see cref="UpgradeProtocols.Accepts"/>),
    /// as a mask; zero for a request that is no upgrade to tunnel.
    /// </summary>
    public ulong RequestedUpgrades { get; set; }

    /// <summary>
    /// The request is an upgrade the proxy tunnels: its <c>Connection: upgrade</c> and <c>Upgrade</c> fields are
    /// forwarded, and a <c>101</c> answer to it turns the connection into a tunnel.
    /// </summary>
    public bool IsUpgrade => RequestedUpgrades != 0;

    public ReadOnlySpan<byte> Method => Source.Span[..MethodLength];

    public ReadOnlySpan<byte> Path => Source.Span.Slice(PathStart, PathLength);

    /// <summary>The asterisk-form target of <c>OPTIONS *</c> (RFC 9112 §3.2.4).</summary>
    public bool IsAsteriskForm => PathLength == 1 && Source.Span[PathStart] == (byte)'*';

    /// <summary>The authority the client asked for: the absolute-form's, else the <c>Host</c> value, else empty.</summary>
    public ReadOnlySpan<byte> ClientAuthority
        => HasAbsoluteTarget
            ? Source.Span.Slice(TargetAuthorityStart, TargetAuthorityLength)
            : HostFieldIndex >= 0 ? Fields[HostFieldIndex].Value(Source.Span) : default;

    protected override void ResetMessage()
    {
        MethodLength = 0;
        PathStart = 0;
        PathLength = 0;
        HasAbsoluteTarget = false;
        TargetAuthorityStart = 0;
        TargetAuthorityLength = 0;
        HostFieldIndex = -1;
        IsHeadMethod = false;
        IsIdempotent = false;
        AcceptsTrailers = false;
        ExpectsContinue = false;
        RequestedUpgrades = 0;
    }
}
