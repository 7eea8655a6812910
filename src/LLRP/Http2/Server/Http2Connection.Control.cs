using System.Buffers;
using System.Buffers.Binary;
using LLRP.Configuration;
using LLRP.Http2.Codec;

namespace LLRP.Http2.Server;

/// <summary>The frames that are not a request's head: DATA, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, RST_STREAM, PRIORITY (RFC 9113 §6).</summary>
internal sealed partial class Http2Connection
{
    private long _receiveWindow;
    private int _unannouncedReceived;
    private int _peerInitialWindow = Http2Settings.MinWindowSize;
    private bool _settingsReceived;
    private bool _goAwaySent;
    private int _emptyFrames;
    private int _unansweredControl;
    private bool _clientNotReading;
    private int _resetCredit;

    /// <summary>Our SETTINGS (RFC 9113 §3.4: the server's preface), and the connection window opened to its configured size.</summary>
    private void SendSettings()
    {
        lock (_output.Sync)
        {
            FrameWriter.WriteSettings(_output.Writer,
            [
                (SettingIds.HeaderTableSize, (uint)ServerLimits.HeaderTableSize),
                (SettingIds.EnablePush, 0u),
                (SettingIds.MaxConcurrentStreams, (uint)Limits.MaxConcurrentStreams),
                (SettingIds.InitialWindowSize, (uint)Limits.InitialStreamWindowSize),
                (SettingIds.MaxFrameSize, (uint)Limits.MaxFrameSize),
                (SettingIds.MaxHeaderListSize, (uint)Limits.MaxHeaderListSize),
            ]);
            if (Limits.InitialConnectionWindowSize > Http2Settings.MinWindowSize)
            {
                FrameWriter.WriteWindowUpdate(_output.Writer, 0, Limits.InitialConnectionWindowSize - Http2Settings.MinWindowSize);
            }

            _output.ScheduleFlush();
        }
    }

    private void OnFrame(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (_headerStreamId != 0 && header.Type != Http2FrameType.Continuation)
        {
            throw Error(Http2ErrorCode.ProtocolError, "A frame inside a header block (RFC 9113 §6.10)");
        }

        if (!_settingsReceived && header.Type != Http2FrameType.Settings)
        {
            throw Error(Http2ErrorCode.ProtocolError, "The client's preface ends with SETTINGS (RFC 9113 §3.4)");
        }

        switch (header.Type)
        {
            case Http2FrameType.Data:
                OnData(header, payload);
                break;
            case Http2FrameType.Headers:
                OnHeaders(header, payload);
                break;
            case Http2FrameType.Priority:
                OnPriority(header, payload);
                break;
            case Http2FrameType.RstStream:
                OnRstStream(header, payload);
                break;
            case Http2FrameType.Settings:
                OnSettings(header, payload);
                break;
            case Http2FrameType.PushPromise:
                throw Error(Http2ErrorCode.ProtocolError, "PUSH_PROMISE from a client (RFC 9113 §8.4)");
            case Http2FrameType.Ping:
                OnPing(header, payload);
                break;
            case Http2FrameType.GoAway:
                OnGoAway(header);
                break;
            case Http2FrameType.WindowUpdate:
                OnWindowUpdate(header, payload);
                break;
            case Http2FrameType.Continuation:
                OnContinuation(header, payload);
                break;
            default:
                // RFC 9113 §4.1, §5.5: frames of unknown types are ignored.
                break;
        }
    }

    private void OnData(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId == 0)
        {
            throw Error(Http2ErrorCode.ProtocolError, "DATA on stream 0 (RFC 9113 §6.1)");
        }

        var data = FramePadding.Remove(header, payload, 0);
        var endStream = (header.Flags & Http2FrameFlags.EndStream) != 0;
        CountEmptyFrame(header.Length == 0 && !endStream);
        lock (_output.Sync)
        {
            if (header.Length > _receiveWindow)
            {
                throw Error(Http2ErrorCode.FlowControlError, "DATA past the connection's flow-control window (RFC 9113 §6.9.1)");
            }

            // The connection window opens again as DATA arrives: each stream's window bounds what it buffers.
            _receiveWindow -= header.Length;
            _unannouncedReceived += header.Length;
            if (_unannouncedReceived >= Limits.InitialConnectionWindowSize / 2 && !_output.IsClosed)
            {
                FrameWriter.WriteWindowUpdate(_output.Writer, 0, _unannouncedReceived);
                _receiveWindow += _unannouncedReceived;
                _unannouncedReceived = 0;
                _output.ScheduleFlush();
            }

            if (_streams.TryGetValue(header.StreamId, out var stream) && !stream.IsClosed)
            {
                if (stream.IsReset)
                {
                    return;
                }

                var code = stream.RequestEnded ? Http2ErrorCode.StreamClosed : stream.OnData(data, header.Length, endStream);
                if (code != Http2ErrorCode.NoError)
                {
                    stream.Reset(code);
                }

                return;
            }

            OnClosedOrIdle(header);
        }
    }

    private void OnPriority(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId == 0)
        {
            throw Error(Http2ErrorCode.ProtocolError, "PRIORITY on stream 0 (RFC 9113 §6.3)");
        }

        if (header.Length != 5)
        {
            StreamError(header.StreamId, Http2ErrorCode.FrameSizeError);
            return;
        }

        // RFC 9113 §5.3.2: priority signals are ignored, but a stream cannot depend on itself (§5.3.1).
        if (DependsOnItself(header.StreamId, payload))
        {
            StreamError(header.StreamId, Http2ErrorCode.ProtocolError);
        }
    }

    private void OnRstStream(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId == 0)
        {
            throw Error(Http2ErrorCode.ProtocolError, "RST_STREAM on stream 0 (RFC 9113 §6.4)");
        }

        if (header.Length != 4)
        {
            throw Error(Http2ErrorCode.FrameSizeError, "RST_STREAM of a length other than 4 (RFC 9113 §6.4)");
        }

        lock (_output.Sync)
        {
            if (_streams.TryGetValue(header.StreamId, out var stream))
            {
                _recentlyReset.Add(header.StreamId);
                stream.OnClientReset(new IOException($"The client reset the stream ({(Http2ErrorCode)FramePayload.ReadUInt32(payload)})."));
                CountReset();
            }
            else if (header.StreamId > _highestStreamId)
            {
                throw Error(Http2ErrorCode.ProtocolError, "RST_STREAM on an idle stream (RFC 9113 §5.1)");
            }
        }
    }

    private void OnSettings(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId != 0)
        {
            throw Error(Http2ErrorCode.ProtocolError, "SETTINGS on a stream (RFC 9113 §6.5)");
        }

        if ((header.Flags & Http2FrameFlags.Ack) != 0)
        {
            if (header.Length != 0)
            {
                throw Error(Http2ErrorCode.FrameSizeError, "SETTINGS ACK with a payload (RFC 9113 §6.5)");
            }

            return;
        }

        if (header.Length % 6 != 0)
        {
            throw Error(Http2ErrorCode.FrameSizeError, "SETTINGS of a length not a multiple of 6 (RFC 9113 §6.5)");
        }

        Span<byte> settings = header.Length <= 256 ? stackalloc byte[header.Length] : new byte[header.Length];
        payload.CopyTo(settings);
        lock (_output.Sync)
        {
            for (var offset = 0; offset < settings.Length; offset += 6)
            {
                Apply(BinaryPrimitives.ReadUInt16BigEndian(settings[offset..]), BinaryPrimitives.ReadUInt32BigEndian(settings[(offset + 2)..]));
            }

            _settingsReceived = true;
            CountControlAnswer();
            if (!_output.IsClosed)
            {
                FrameWriter.WriteSettingsAck(_output.Writer);
                _output.ScheduleFlush();
            }
        }
    }

    /// <summary>One setting of the client's (RFC 9113 §6.5.2); the ones that change nothing here are ignored. Under the output's lock.</summary>
    private void Apply(ushort id, uint value)
    {
        switch (id)
        {
            case SettingIds.EnablePush when value > 1:
                throw Error(Http2ErrorCode.ProtocolError, "SETTINGS_ENABLE_PUSH other than 0 or 1 (RFC 9113 §6.5.2)");
            case SettingIds.InitialWindowSize when value > int.MaxValue:
                throw Error(Http2ErrorCode.FlowControlError, "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1 (RFC 9113 §6.5.2)");
            case SettingIds.InitialWindowSize:
                var delta = (long)value - _peerInitialWindow;
                _peerInitialWindow = (int)value;
                foreach (var stream in _streams.Values)
                {
                    if (!stream.AdjustSendWindow(delta))
                    {
                        throw Error(Http2ErrorCode.FlowControlError, "A stream's window above 2^31-1 (RFC 9113 §6.9.2)");
                    }
                }

                break;
            case SettingIds.MaxFrameSize when value is < Http2Settings.MinFrameSize or > Http2Settings.MaxFrameSizeLimit:
                throw Error(Http2ErrorCode.ProtocolError, "SETTINGS_MAX_FRAME_SIZE out of range (RFC 9113 §6.5.2)");
            case SettingIds.MaxFrameSize:
                PeerMaxFrameSize = (int)value;
                break;
        }
    }

    private void OnPing(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId != 0)
        {
            throw Error(Http2ErrorCode.ProtocolError, "PING on a stream (RFC 9113 §6.7)");
        }

        if (header.Length != 8)
        {
            throw Error(Http2ErrorCode.FrameSizeError, "PING of a length other than 8 (RFC 9113 §6.7)");
        }

        if ((header.Flags & Http2FrameFlags.Ack) != 0)
        {
            return;
        }

        Span<byte> opaque = stackalloc byte[8];
        payload.CopyTo(opaque);
        lock (_output.Sync)
        {
            CountControlAnswer();
            if (!_output.IsClosed)
            {
                FrameWriter.WritePing(_output.Writer, ack: true, BinaryPrimitives.ReadUInt64BigEndian(opaque));
                _output.ScheduleFlush();
            }
        }
    }

    private void OnGoAway(FrameHeader header)
    {
        if (header.StreamId != 0)
        {
            throw Error(Http2ErrorCode.ProtocolError, "GOAWAY on a stream (RFC 9113 §6.8)");
        }

        if (header.Length < 8)
        {
            throw Error(Http2ErrorCode.FrameSizeError, "GOAWAY shorter than 8 (RFC 9113 §6.8)");
        }

        lock (_output.Sync)
        {
            // The client opens no more streams; those open finish, then the connection ends (IsDrained).
            _goAwayReceived = true;
        }
    }

    private void OnWindowUpdate(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.Length != 4)
        {
            throw Error(Http2ErrorCode.FrameSizeError, "WINDOW_UPDATE of a length other than 4 (RFC 9113 §6.9)");
        }

        var increment = FramePayload.ReadUInt31(payload);
        lock (_output.Sync)
        {
            if (header.StreamId == 0)
            {
                if (increment == 0)
                {
                    throw Error(Http2ErrorCode.ProtocolError, "WINDOW_UPDATE of 0 (RFC 9113 §6.9)");
                }

                if (_output.SendWindow + increment > int.MaxValue)
                {
                    throw Error(Http2ErrorCode.FlowControlError, "The connection window above 2^31-1 (RFC 9113 §6.9.1)");
                }

                _output.OpenSendWindow(increment);
                return;
            }

            if (_streams.TryGetValue(header.StreamId, out var stream))
            {
                if (increment == 0)
                {
                    stream.Reset(Http2ErrorCode.ProtocolError);
                }
                else if (!stream.AdjustSendWindow(increment))
                {
                    stream.Reset(Http2ErrorCode.FlowControlError);
                }
            }
            else if (header.StreamId > _highestStreamId)
            {
                throw Error(Http2ErrorCode.ProtocolError, "WINDOW_UPDATE on an idle stream (RFC 9113 §5.1)");
            }
        }
    }

    /// <summary>A frame for a stream not in the table: idle is a connection error, recently reset is ignored, closed is STREAM_CLOSED (RFC 9113 §5.1). Under the output's lock.</summary>
    private void OnClosedOrIdle(FrameHeader header)
    {
        if (header.StreamId > _highestStreamId)
        {
            throw Error(Http2ErrorCode.ProtocolError, $"{header.Type} on an idle stream (RFC 9113 §5.1)");
        }

        if (!_recentlyReset.Contains(header.StreamId))
        {
            throw Error(Http2ErrorCode.StreamClosed, $"{header.Type} on a closed stream (RFC 9113 §5.1)");
        }
    }

    /// <summary>Resets stream <paramref name="id"/> (RFC 9113 §5.4.2), open or not.</summary>
    private void StreamError(int id, Http2ErrorCode code)
    {
        lock (_output.Sync)
        {
            if (_streams.TryGetValue(id, out var stream))
            {
                stream.Reset(code);
                return;
            }

            if (!_output.IsClosed)
            {
                FrameWriter.WriteRstStream(_output.Writer, id, code);
                _output.ScheduleFlush();
            }

            _recentlyReset.Add(id);
        }
    }

    /// <summary>Empty DATA or CONTINUATION without their END flag cost the server work and carry nothing: past a few in a row, a flood.</summary>
    private void CountEmptyFrame(bool empty)
    {
        _emptyFrames = empty ? _emptyFrames + 1 : 0;
        if (_emptyFrames > ServerLimits.MaxEmptyFrames)
        {
            throw Error(Http2ErrorCode.EnhanceYourCalm, "A flood of empty frames");
        }
    }

    /// <summary>SETTINGS and PING answers pile up only while the client does not read them: past a bound, a flood. Under the output's lock.</summary>
    private void CountControlAnswer()
    {
        _unansweredControl = _output.Drained is null ? 0 : _unansweredControl + 1;
        if (_unansweredControl > ServerLimits.MaxPendingControlAnswers)
        {
            _clientNotReading = true;
            throw Error(Http2ErrorCode.EnhanceYourCalm, "A flood of SETTINGS or PING the client does not read the answers of");
        }
    }

    /// <summary>A stream the client reset takes a credit (CVE-2023-44487, "rapid reset"): with none left, the connection ends. Under the output's lock.</summary>
    private void CountReset()
    {
        if (--_resetCredit < 0)
        {
            throw Error(Http2ErrorCode.EnhanceYourCalm, "More streams reset by the client than answered (rapid reset)");
        }
    }

    /// <summary>A stream answered gives a reset credit back (<see cref="ServerLimits.MaxResetCredit"/>). Under the output's lock.</summary>
    private void CreditAnsweredStream()
    {
        if (_resetCredit < Limits.MaxResetCredit)
        {
            _resetCredit++;
        }
    }

    private static bool DependsOnItself(int streamId, in ReadOnlySequence<byte> priority)
        => FramePayload.ReadUInt31(priority) == streamId;


    private static Http2ConnectionException Error(Http2ErrorCode code, string message) => new(code, message);
}
