using System.Buffers;
using System.Buffers.Binary;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Http2.Codec;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// The read loop: frames from the destination (RFC 9113 §6), demultiplexed to the streams. A connection error sends
/// GOAWAY and ends the connection; its streams fail, those the destination never processed as such (§8.7).
/// </summary>
internal sealed partial class Http2ClientConnection
{
    private const int HeaderTableSize = 4096;

    private readonly HpackDecoder _decoder;
    private readonly ResponseFieldSink _fields = new();
    private readonly ArrayBufferWriter<byte> _headerBlock = new(4096);
    private readonly TaskCompletionSource<bool> _settingsReceived = new(TaskCreationOptions.RunContinuationsAsynchronously);
    /// <summary>The heads decided while a read's frames are handled, given to their waiters after (<see cref="CompleteHeads"/>). Read loop.</summary>
    private readonly List<(Http2ClientStream Stream, short Use, ForwarderError Result)> _heads = [];
    private long _receiveWindow;
    private int _unannouncedReceived;
    private int _headerStreamId;
    private bool _headerEndStream;
    private bool _goAwayReceived;

    private async Task ReadLoopAsync()
    {
        var input = _transport.Input;
        try
        {
            while (true)
            {
                var result = await input.ReadAsync();
                var buffer = result.Buffer;
                ReadBatchScheduler.Begin();
                try
                {
                    // Our SETTINGS_MAX_FRAME_SIZE stays at its initial value (RFC 9113 §4.2).
                    while (FrameHeader.TryReadFrame(ref buffer, Http2Settings.MinFrameSize, out var header, out var payload))
                    {
                        OnFrame(header, payload);
                    }
                }
                finally
                {
                    input.AdvanceTo(buffer.Start, buffer.End);
                }

                CompleteHeads();

                if (result.IsCompleted)
                {
                    return;
                }
            }
        }
        catch (Http2ConnectionException e)
        {
            GoAway(e.Code);
        }
        catch (HpackDecodingException)
        {
            // RFC 9113 §4.3: a field block that cannot be decoded is a connection error of type COMPRESSION_ERROR.
            GoAway(Http2ErrorCode.CompressionError);
        }
        catch (Exception e) when (e is IOException or ConnectionAbortedException or ConnectionResetException or ObjectDisposedException or InvalidOperationException)
        {
            // The destination closed or reset the connection, or the proxy aborted it.
        }
        finally
        {
            await CloseAsync();
        }
    }

    private void OnFrame(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (_headerStreamId != 0 && header.Type != Http2FrameType.Continuation)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "A frame inside a header block (RFC 9113 §6.10)");
        }

        if (!_settingsReceived.Task.IsCompleted && header.Type != Http2FrameType.Settings)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "The server's preface starts with SETTINGS (RFC 9113 §3.4)");
        }

        switch (header.Type)
        {
            case Http2FrameType.Data:
                OnData(header, payload);
                break;
            case Http2FrameType.Headers:
                OnHeaders(header, payload);
                break;
            case Http2FrameType.Continuation:
                OnContinuation(header, payload);
                break;
            case Http2FrameType.RstStream:
                OnRstStream(header, payload);
                break;
            case Http2FrameType.Settings:
                OnSettings(header, payload);
                break;
            case Http2FrameType.PushPromise:
                // RFC 9113 §8.4: push is disabled by our SETTINGS_ENABLE_PUSH of 0.
                throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "PUSH_PROMISE with push disabled (RFC 9113 §8.4)");
            case Http2FrameType.Ping:
                OnPing(header, payload);
                break;
            case Http2FrameType.GoAway:
                OnGoAway(header, payload);
                break;
            case Http2FrameType.WindowUpdate:
                OnWindowUpdate(header, payload);
                break;
            default:
                // PRIORITY is deprecated (RFC 9113 §5.3.2) and unknown types are ignored (§4.1).
                break;
        }
    }

    private void OnData(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId == 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "DATA on stream 0 (RFC 9113 §6.1)");
        }

        var data = FramePadding.Remove(header, payload, 0);
        var endStream = (header.Flags & Http2FrameFlags.EndStream) != 0;
        lock (_output.Sync)
        {
            if (header.Length > _receiveWindow)
            {
                throw new Http2ConnectionException(Http2ErrorCode.FlowControlError, "DATA past the connection's flow-control window (RFC 9113 §6.9.1)");
            }

            // The connection window opens again as DATA arrives (padding included, §6.9.1): each stream's window bounds what it buffers.
            _receiveWindow -= header.Length;
            _unannouncedReceived += header.Length;
            if (_unannouncedReceived >= ConnectionWindow / 2 && !_output.IsClosed)
            {
                FrameWriter.WriteWindowUpdate(_output.Writer, 0, _unannouncedReceived);
                _receiveWindow += _unannouncedReceived;
                _unannouncedReceived = 0;
                _output.ScheduleFlush();
            }

            if (!_streams.TryGetValue(header.StreamId, out var stream) || stream.RemoteEnded)
            {
                // A stream reset or released meanwhile (RFC 9113 §5.1: frames in flight are ignored), or one never opened.
                ThrowIfIdle(header.StreamId);
                return;
            }

            if (!stream.HeadReceived || header.Length > stream.ReceiveWindow)
            {
                // §8.1.1: DATA before the response head is malformed; §6.9.1: past the stream window, FLOW_CONTROL_ERROR.
                StreamError(stream, stream.HeadReceived ? Http2ErrorCode.FlowControlError : Http2ErrorCode.ProtocolError, ForwarderError.InvalidResponse);
                return;
            }

            stream.ReceiveWindow -= header.Length;
            // Padding is given back at once: the exchange never sees it (§6.1).
            stream.Unannounced += header.Length - (int)data.Length;
            foreach (var segment in data)
            {
                stream.OnData(segment.Span, endStream: false);
            }

            if (endStream)
            {
                stream.OnData(default, endStream: true);
                stream.RemoteEnded = true;
                RemoveIfClosed(stream);
            }
        }
    }

    private void OnHeaders(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId == 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "HEADERS on stream 0 (RFC 9113 §6.2)");
        }

        var fragment = FramePadding.Remove(header, payload, (header.Flags & Http2FrameFlags.Priority) != 0 ? 5 : 0);
        _headerStreamId = header.StreamId;
        _headerEndStream = (header.Flags & Http2FrameFlags.EndStream) != 0;
        if ((header.Flags & Http2FrameFlags.EndHeaders) != 0 && fragment.IsSingleSegment)
        {
            EndHeaderBlock(fragment.FirstSpan);
            return;
        }

        _headerBlock.ResetWrittenCount();
        Append(fragment);
        if ((header.Flags & Http2FrameFlags.EndHeaders) != 0)
        {
            EndHeaderBlock(_headerBlock.WrittenSpan);
        }
    }

    private void OnContinuation(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (_headerStreamId == 0 || header.StreamId != _headerStreamId)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "CONTINUATION not following its stream's HEADERS (RFC 9113 §6.10)");
        }

        Append(payload);
        if ((header.Flags & Http2FrameFlags.EndHeaders) != 0)
        {
            EndHeaderBlock(_headerBlock.WrittenSpan);
        }
    }

    private void Append(in ReadOnlySequence<byte> fragment)
    {
        if (_headerBlock.WrittenCount + fragment.Length > 2 * _maxResponseHeadSize)
        {
            // A block past any field list the limit allows, even Huffman-coded at its worst: the connection ends.
            throw new Http2ConnectionException(Http2ErrorCode.EnhanceYourCalm, "A header block past the header list limit (RFC 9113 §10.5.1)");
        }

        foreach (var segment in fragment)
        {
            _headerBlock.Write(segment.Span);
        }
    }

    /// <summary>
    /// A whole field block: the response head (a 1xx dropped, RFC 9110 §15.2, but 101 is malformed over HTTP/2, RFC 9113
    /// §8.6), or the trailers, which end the stream (§8.1). Every block is decoded, wanted or not, so the HPACK dynamic
    /// table stays in step with the destination's (§4.3).
    /// </summary>
    private void EndHeaderBlock(ReadOnlySpan<byte> block)
    {
        var id = _headerStreamId;
        var endStream = _headerEndStream;
        _headerStreamId = 0;

        // Decoded under the output's lock: a stream its exchange releases (timeout, client reset) is taken for its next
        // request at once, maybe on another connection, so its head and trailers are written only while it is ours.
        lock (_output.Sync)
        {
            if (!_streams.TryGetValue(id, out var stream) || stream.RemoteEnded)
            {
                ThrowIfIdle(id);
                _decoder.Decode(block, default(DiscardingFieldSink));
                return;
            }

            var trailers = stream.HeadReceived;
            _fields.Begin(stream, trailers);
            var tooLarge = false;
            try
            {
                _decoder.Decode(block, _fields);
            }
            catch (HeaderListTooLargeException)
            {
                tooLarge = true;
            }

            _fields.End();
            var status = _fields.Status;
            if (tooLarge || _fields.Malformed || (!trailers && (status == 101 || (status < 200 && endStream))) || (trailers && !endStream))
            {
                StreamError(stream, Http2ErrorCode.ProtocolError, trailers ? ForwarderError.ResponseBodyFailed : ForwarderError.InvalidResponse);
                return;
            }

            if (!trailers && status < 200)
            {
                return;
            }

            if (!trailers)
            {
                stream.HeadReceived = true;
                _heads.Add((stream, stream.HeadUse, ForwarderError.None));
            }

            if (endStream)
            {
                stream.OnData(default, endStream: true);
                stream.RemoteEnded = true;
                RemoveIfClosed(stream);
            }
        }
    }

    private void OnRstStream(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId == 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "RST_STREAM on stream 0 (RFC 9113 §6.4)");
        }

        if (header.Length != 4)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, "RST_STREAM of other than 4 bytes (RFC 9113 §6.4)");
        }

        var code = (Http2ErrorCode)FramePayload.ReadUInt32(payload);
        lock (_output.Sync)
        {
            if (!_streams.Remove(header.StreamId, out var stream))
            {
                ThrowIfIdle(header.StreamId);
                return;
            }

            _reserved--;
            if (stream.RemoteEnded)
            {
                // The response is whole: the destination only stops the rest of the request (RFC 9113 §8.1, NO_ERROR).
                stream.LocalEnded = true;
                stream.WakeSender();
            }
            else
            {
                // §8.7: REFUSED_STREAM means the stream was not processed at all.
                stream.Unprocessed = code == Http2ErrorCode.RefusedStream;
                Fail(stream, stream.HeadReceived ? ForwarderError.ResponseBodyFailed : ForwarderError.UpstreamClosed);
            }

            CloseIfDrained();
        }
    }

    private void OnSettings(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId != 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "SETTINGS on a stream (RFC 9113 §6.5)");
        }

        if ((header.Flags & Http2FrameFlags.Ack) != 0)
        {
            if (header.Length != 0)
            {
                throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, "SETTINGS ACK with a payload (RFC 9113 §6.5)");
            }

            return;
        }

        if (header.Length % 6 != 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, "SETTINGS not a multiple of 6 bytes (RFC 9113 §6.5)");
        }

        Span<byte> settings = stackalloc byte[header.Length];
        payload.CopyTo(settings);
        lock (_output.Sync)
        {
            for (var i = 0; i < settings.Length; i += 6)
            {
                Apply(BinaryPrimitives.ReadUInt16BigEndian(settings[i..]), BinaryPrimitives.ReadUInt32BigEndian(settings[(i + 2)..]));
            }

            if (!_output.IsClosed)
            {
                FrameWriter.WriteSettingsAck(_output.Writer);
                _output.ScheduleFlush();
            }
        }

        _settingsReceived.TrySetResult(true);
    }

    /// <summary>One setting of the destination (RFC 9113 §6.5.2); unknown ones are ignored. Under the output's lock.</summary>
    private void Apply(ushort id, uint value)
    {
        switch (id)
        {
            case SettingIds.EnablePush when value != 0:
                throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "SETTINGS_ENABLE_PUSH other than 0 from a server (RFC 9113 §6.5.2)");
            case SettingIds.MaxConcurrentStreams:
                _peerMaxConcurrentStreams = (int)Math.Min(value, int.MaxValue);
                break;
            case SettingIds.InitialWindowSize:
                if (value > int.MaxValue)
                {
                    throw new Http2ConnectionException(Http2ErrorCode.FlowControlError, "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1 (RFC 9113 §6.5.2)");
                }

                // §6.9.2: the change applies to the send window of every open stream, which may go negative.
                var delta = (int)value - _peerInitialWindow;
                _peerInitialWindow = (int)value;
                foreach (var stream in _streams.Values)
                {
                    stream.SendWindow += delta;
                    if (stream.SendWindow > int.MaxValue)
                    {
                        throw new Http2ConnectionException(Http2ErrorCode.FlowControlError, "A stream window above 2^31-1 (RFC 9113 §6.9.2)");
                    }

                    stream.WakeSender();
                }

                break;
            case SettingIds.MaxFrameSize:
                if (value is < Http2Settings.MinFrameSize or > Http2Settings.MaxFrameSizeLimit)
                {
                    throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "SETTINGS_MAX_FRAME_SIZE outside 2^14 to 2^24-1 (RFC 9113 §6.5.2)");
                }

                _peerMaxFrameSize = (int)value;
                break;
        }
    }

    private void OnPing(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId != 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "PING on a stream (RFC 9113 §6.7)");
        }

        if (header.Length != 8)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, "PING of other than 8 bytes (RFC 9113 §6.7)");
        }

        if ((header.Flags & Http2FrameFlags.Ack) != 0)
        {
            return;
        }

        Span<byte> opaque = stackalloc byte[8];
        payload.CopyTo(opaque);
        lock (_output.Sync)
        {
            if (!_output.IsClosed)
            {
                FrameWriter.WritePing(_output.Writer, ack: true, opaque);
                _output.ScheduleFlush();
            }
        }
    }

    /// <summary>
    /// GOAWAY (RFC 9113 §6.8): no new stream on the connection; the streams above the last stream id were not processed
    /// (safe to send again elsewhere), those at or below it run to their end.
    /// </summary>
    private void OnGoAway(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.StreamId != 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "GOAWAY on a stream (RFC 9113 §6.8)");
        }

        if (header.Length < 8)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, "GOAWAY shorter than 8 bytes (RFC 9113 §6.8)");
        }

        var lastStreamId = FramePayload.ReadUInt31(payload);
        lock (_output.Sync)
        {
            _goAwayReceived = true;
            foreach (var stream in _streams.Values.Where(stream => stream.Id > lastStreamId).ToList())
            {
                _streams.Remove(stream.Id);
                _reserved--;
                stream.Unprocessed = true;
                Fail(stream, ForwarderError.UpstreamClosed);
            }

            CloseIfDrained();
        }

        _owner.Remove(this);
    }

    private void OnWindowUpdate(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        if (header.Length != 4)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FrameSizeError, "WINDOW_UPDATE of other than 4 bytes (RFC 9113 §6.9)");
        }

        var increment = FramePayload.ReadUInt31(payload);
        lock (_output.Sync)
        {
            if (header.StreamId == 0)
            {
                if (increment == 0 || _output.SendWindow + increment > int.MaxValue)
                {
                    throw new Http2ConnectionException(
                        increment == 0 ? Http2ErrorCode.ProtocolError : Http2ErrorCode.FlowControlError, "WINDOW_UPDATE of 0, or the connection window above 2^31-1 (RFC 9113 §6.9, §6.9.1)");
                }

                _output.OpenSendWindow(increment);
                return;
            }

            if (!_streams.TryGetValue(header.StreamId, out var stream))
            {
                ThrowIfIdle(header.StreamId);
                return;
            }

            if (increment == 0 || stream.SendWindow + increment > int.MaxValue)
            {
                // §6.9, §6.9.1: a stream error for that stream alone.
                StreamError(stream, increment == 0 ? Http2ErrorCode.ProtocolError : Http2ErrorCode.FlowControlError,
                    stream.HeadReceived ? ForwarderError.ResponseBodyFailed : ForwarderError.RequestFailed);
                return;
            }

            stream.SendWindow += increment;
            stream.WakeSender();
        }
    }

    /// <summary>A frame on a stream we never opened (RFC 9113 §5.1: idle) is a connection error of type PROTOCOL_ERROR.</summary>
    private void ThrowIfIdle(int streamId)
    {
        if (streamId >= _nextStreamId && _nextStreamId > 0)
        {
            throw new Http2ConnectionException(Http2ErrorCode.ProtocolError, "A frame on an idle stream (RFC 9113 §5.1)");
        }
    }

    /// <summary>A stream error (RFC 9113 §5.4.2): RST_STREAM with <paramref name="code"/>, and the exchange gets <paramref name="error"/>. Under the output's lock.</summary>
    private void StreamError(Http2ClientStream stream, Http2ErrorCode code, ForwarderError error)
    {
        if (_streams.Remove(stream.Id))
        {
            _reserved--;
        }

        if (!_output.IsClosed)
        {
            FrameWriter.WriteRstStream(_output.Writer, stream.Id, code);
            _output.ScheduleFlush();
        }

        Fail(stream, error);
        CloseIfDrained();
    }

    /// <summary>A stream failed (<see cref="Http2ClientStream.Fail"/>): a head not yet in will be <paramref name="beforeHead"/>. Under the output's lock, read loop.</summary>
    private void Fail(Http2ClientStream stream, ForwarderError beforeHead)
    {
        stream.Fail();
        _heads.Add((stream, stream.HeadUse, beforeHead));
    }

    /// <summary>
    /// Gives the heads decided in a read to their waiters, then runs the body readers the read woke
    /// (<see cref="ReadBatchScheduler"/>), outside the output's lock: each exchange goes on on this thread, so it finds
    /// the body and trailers of the same read in, and the responses of one read reach their clients together.
    /// </summary>
    private void CompleteHeads()
    {
        for (var i = 0; i < _heads.Count; i++)
        {
            var (stream, use, result) = _heads[i];
            stream.CompleteHead(use, result);
        }

        _heads.Clear();
        ReadBatchScheduler.End();
    }

    /// <summary>A connection error (RFC 9113 §5.4.1): GOAWAY with the last stream id we processed, which for a client is none.</summary>
    private void GoAway(Http2ErrorCode code)
    {
        lock (_output.Sync)
        {
            if (!_output.IsClosed)
            {
                FrameWriter.WriteGoAway(_output.Writer, 0, code, default);
                _output.ScheduleFlush();
            }
        }
    }

    /// <summary>Ends the connection: every stream still open fails (none was answered to its end), the pool forgets it, the transport goes.</summary>
    private async ValueTask CloseAsync()
    {
        lock (_output.Sync)
        {
            _closed = true;
            foreach (var stream in _streams.Values)
            {
                Fail(stream, stream.HeadReceived ? ForwarderError.ResponseBodyFailed : ForwarderError.UpstreamClosed);
            }

            _streams.Clear();
            _output.WakeWindowWaiters();
        }

        // After the flag, so that a connection still joining its destination's set sees it closed (Http2DestinationConnections.OpenAsync).
        _owner.Remove(this);
        CompleteHeads();

        _settingsReceived.TrySetResult(false);
        await _output.CompleteAsync();
        await _transport.DisposeAsync();
    }
}
