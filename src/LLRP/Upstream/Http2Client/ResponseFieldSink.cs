using LLRP.Http2.Codec;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// Takes the fields of a response's field block as the HPACK decoder gives them (RFC 9113 §8.3.2): <c>:status</c> first
/// and once, then fields with valid lowercase names and values (§8.2.1) and none of the connection-specific ones (§8.2.2);
/// anything else makes the response malformed (§8.1.1). The head goes to the stream's rendered head, trailers (no
/// pseudo-header, §8.1) to its list. One per connection, used by its read loop, block after block.
/// </summary>
internal sealed class ResponseFieldSink : IHeaderSink
{
    private Http2ClientStream? _stream;
    private bool _trailers;
    private bool _statusSeen;
    private bool _fieldSeen;

    /// <summary>The block broke a rule of RFC 9113 §8: a stream error of type PROTOCOL_ERROR.</summary>
    public bool Malformed { get; private set; }

    /// <summary>The <c>:status</c> of the head decoded last.</summary>
    public int Status { get; private set; }

    /// <summary>Starts a block for <paramref name="stream"/>: its head, or with <paramref name="trailers"/> its trailers.</summary>
    public void Begin(Http2ClientStream stream, bool trailers)
    {
        (_stream, _trailers, _statusSeen, _fieldSeen, Malformed, Status) = (stream, trailers, false, false, false, 0);
    }

    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (Malformed)
        {
            return;
        }

        var stream = _stream!;
        if (!name.IsEmpty && name[0] == (byte)':')
        {
            if (_trailers || _statusSeen || _fieldSeen || !name.SequenceEqual(":status"u8) || !TryParseStatus(value, out var status))
            {
                Malformed = true;
                return;
            }

            _statusSeen = true;
            Status = status;
            stream.Head.Begin(status, null, isHttp10: false);
            return;
        }

        _fieldSeen = true;
        if ((!_trailers && !_statusSeen) || !FieldRules.IsValidName(name) || !FieldRules.IsValidValue(value) || FieldRules.IsConnectionSpecific(name))
        {
            Malformed = true;
            return;
        }

        if (_trailers)
        {
            var index = stream.Trailers.Count;
            stream.Trailers.Add(new(stream.TrailerStrings.Name(index, name), stream.TrailerStrings.Value(index, value)));
        }
        else
        {
            stream.Head.Add(name, value);
        }
    }

    /// <summary>Ends the block: a head without <c>:status</c> is malformed (RFC 9113 §8.3.2).</summary>
    public void End()
    {
        Malformed |= !_trailers && !_statusSeen;
        _stream = null;
    }

    /// <summary>RFC 9113 §8.3.2: <c>:status</c> is the three-digit code (RFC 9110 §15).</summary>
    private static bool TryParseStatus(ReadOnlySpan<byte> value, out int status)
    {
        status = 0;
        if (value.Length != 3 || !char.IsAsciiDigit((char)value[0]) || !char.IsAsciiDigit((char)value[1]) || !char.IsAsciiDigit((char)value[2]) || value[0] == (byte)'0')
        {
            return false;
        }

        status = (value[0] - '0') * 100 + (value[1] - '0') * 10 + (value[2] - '0');
        return true;
    }
}
