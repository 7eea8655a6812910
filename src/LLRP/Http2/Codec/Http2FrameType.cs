namespace LLRP.Http2.Codec;

/// <summary>The frame types of RFC 9113 §6; a frame may carry any other value, which a receiver ignores (§4.1, §5.5).</summary>
internal enum Http2FrameType : byte
{
    Data = 0,
    Headers = 1,
    Priority = 2,
    RstStream = 3,
    Settings = 4,
    PushPromise = 5,
    Ping = 6,
    GoAway = 7,
    WindowUpdate = 8,
    Continuation = 9,
}
