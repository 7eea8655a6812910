namespace LLRP.Http2.Codec;

/// <summary>The flags of RFC 9113 §6; their meaning depends on the frame type (ACK shares END_STREAM's bit).</summary>
[Flags]
internal enum Http2FrameFlags : byte
{
    None = 0,
    EndStream = 1,
    Ack = 1,
    EndHeaders = 4,
    Padded = 8,
    Priority = 0x20,
}
