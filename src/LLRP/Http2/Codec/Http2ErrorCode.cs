namespace LLRP.Http2.Codec;

/// <summary>The error codes of RST_STREAM and GOAWAY frames (RFC 9113 §7).</summary>
internal enum Http2ErrorCode : uint
{
    NoError = 0,
    ProtocolError = 1,
    InternalError = 2,
    FlowControlError = 3,
    SettingsTimeout = 4,
    StreamClosed = 5,
    FrameSizeError = 6,
    RefusedStream = 7,
    Cancel = 8,
    CompressionError = 9,
    ConnectError = 0xa,
    EnhanceYourCalm = 0xb,
    InadequateSecurity = 0xc,
    Http11Required = 0xd,
}
