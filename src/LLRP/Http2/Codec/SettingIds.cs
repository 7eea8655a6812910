namespace LLRP.Http2.Codec;

/// <summary>The identifiers of the settings a SETTINGS frame carries (RFC 9113 §6.5.2).</summary>
internal static class SettingIds
{
    public const ushort HeaderTableSize = 0x1;
    public const ushort EnablePush = 0x2;
    public const ushort MaxConcurrentStreams = 0x3;
    public const ushort InitialWindowSize = 0x4;
    public const ushort MaxFrameSize = 0x5;
    public const ushort MaxHeaderListSize = 0x6;
}
