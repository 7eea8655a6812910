using System.Buffers.Binary;
using LLRP.Http2.Codec;

namespace LLRP.Fuzz;

/// <summary>
/// What the client's bytes (after the preface) allow the server, read frame by frame (RFC 9113 §4.1) up to the last
/// whole one: the streams it opened, the most each send window (§6.9) can have reached, the largest frame size it
/// allowed (§6.5.2), its SETTINGS to acknowledge, its PING payloads, and whether it sent GOAWAY.
/// </summary>
internal sealed class ClientFrames
{
    private const ushort SettingsInitialWindowSize = 0x4;
    private const ushort SettingsMaxFrameSize = 0x5;
    private const long DefaultWindow = 65_535;

    private readonly Dictionary<int, long> _streamIncrements = [];
    private long _largestInitialWindow = DefaultWindow;

    private ClientFrames()
    {
    }

    public HashSet<int> OpenedStreams { get; } = [];

    /// <summary>Every stream a frame of the client's named: a stream error may be answered on any of them (RFC 9113 §5.4.2, §6.3).</summary>
    public HashSet<int> NamedStreams { get; } = [];

    public HashSet<ulong> Pings { get; } = [];

    public int Settings { get; private set; }

    public bool SentGoAway { get; private set; }

    public int LargestFrameSize { get; private set; } = 16_384;

    /// <summary>The most DATA the connection window can have allowed, over all streams.</summary>
    public long ConnectionWindow { get; private set; } = DefaultWindow;

    /// <summary>The most DATA stream <paramref name="id"/>'s window can have allowed.</summary>
    public long StreamWindow(int id) => _largestInitialWindow + _streamIncrements.GetValueOrDefault(id);

    public static ClientFrames Read(ReadOnlySpan<byte> bytes)
    {
        var frames = new ClientFrames();
        while (bytes.Length >= FrameHeader.Size)
        {
            var length = bytes[0] << 16 | bytes[1] << 8 | bytes[2];
            if (bytes.Length < FrameHeader.Size + length)
            {
                break;
            }

            var type = (Http2FrameType)bytes[3];
            var flags = (Http2FrameFlags)bytes[4];
            var streamId = (int)(BinaryPrimitives.ReadUInt32BigEndian(bytes[5..]) & 0x7FFF_FFFF);
            frames.Add(type, flags, streamId, bytes.Slice(FrameHeader.Size, length));
            bytes = bytes[(FrameHeader.Size + length)..];
        }

        return frames;
    }

    private void Add(Http2FrameType type, Http2FrameFlags flags, int streamId, ReadOnlySpan<byte> payload)
    {
        NamedStreams.Add(streamId);
        switch (type)
        {
            case Http2FrameType.Headers:
                OpenedStreams.Add(streamId);
                break;
            case Http2FrameType.Settings when (flags & Http2FrameFlags.Ack) == 0:
                Settings++;
                for (var offset = 0; offset + 6 <= payload.Length; offset += 6)
                {
                    var value = BinaryPrimitives.ReadUInt32BigEndian(payload[(offset + 2)..]);
                    switch (BinaryPrimitives.ReadUInt16BigEndian(payload[offset..]))
                    {
                        case SettingsInitialWindowSize:
                            _largestInitialWindow = Math.Max(_largestInitialWindow, value);
                            break;
                        case SettingsMaxFrameSize:
                            LargestFrameSize = (int)Math.Min(Math.Max(LargestFrameSize, value), FrameHeader.MaxLength);
                            break;
                    }
                }

                break;
            case Http2FrameType.Ping when payload.Length == 8:
                Pings.Add(BinaryPrimitives.ReadUInt64BigEndian(payload));
                break;
            case Http2FrameType.GoAway:
                SentGoAway = true;
                break;
            case Http2FrameType.WindowUpdate when payload.Length == 4:
                var increment = BinaryPrimitives.ReadUInt32BigEndian(payload) & 0x7FFF_FFFFu;
                if (streamId == 0)
                {
                    ConnectionWindow += increment;
                }
                else
                {
                    _streamIncrements[streamId] = _streamIncrements.GetValueOrDefault(streamId) + increment;
                }

                break;
        }
    }
}
