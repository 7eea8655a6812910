using System.Buffers;
using LLRP.Http2.Codec;

namespace LLRP.Http2.Server;

/// <summary>
/// Header blocks (RFC 9113 §4.3, §6.2, §6.10): HEADERS and its CONTINUATION frames joined and decoded (HPACK), opening
/// a request stream, or ending one with trailers. Every block is decoded, refused or not, so the dynamic table stays
/// in step with the client's.
/// </summary>
internal sealed partial class Http2Connection
{
    private readonly ArrayBufferWriter<byte> _headerBlock = new(4096);
    private readonly SkippedStreamIds _skippedStreamIds = new();
    private int _headerStreamId;
    private bool _headerEndStream;
    private bool _headerSelfDependent;
    private long _headerBlockStarted;
    private int _highestStreamId;
    private int _lastStreamId;

    /// <summary>The most bytes a header block may take before it is a flood: twice the header list limit, for Huffman's worst case.</summary>
    private int MaxHeaderBlockSize => 2 * Limits.MaxHeaderListSize;

    private void OnHeaders(FrameHeader header, in ReadOnlySequence<byte> payload)
    {
        var id = header.StreamId;
        if (id == 0 || id % 2 == 0)
        {
            throw Error(Http2ErrorCode.ProtocolError, "HEADERS on stream 0 or an even stream (RFC 9113 §5.1.1)");
        }

        var prioritized = (header.Flags & Http2FrameFlags.Priority) != 0;
        var fragment = FramePadding.Remove(header, payload, prioritized ? 5 : 0);
        _headerSelfDependent = prioritized && DependsOnItself(id, payload.Slice((header.Flags & Http2FrameFlags.Padded) != 0 ? 1 : 0));
        _headerEndStream = (header.Flags & Http2FrameFlags.EndStream) != 0;
        lock (_output.Sync)
        {
            if (!_streams.ContainsKey(id))
            {
                if (id <= _highestStreamId && !_recentlyReset.Contains(id))
                {
                    // RFC 9113 §5.1.1: a new stream's id is above every one the client opened: one it skipped is an
                    // unexpected id, PROTOCOL_ERROR; one it opened and closed is a closed stream, STREAM_CLOSED (§5.1).
                    throw _skippedStreamIds.Contains(id)
                        ? Error(Http2ErrorCode.ProtocolError, "HEADERS on a stream id below one opened (RFC 9113 §5.1.1)")
                        : Error(Http2ErrorCode.StreamClosed, "HEADERS on a closed stream (RFC 9113 §5.1)");
                }

                if (id > _highestStreamId)
                {
                    _skippedStreamIds.OnOpened(_highestStreamId, id);
                    _highestStreamId = id;
                }
            }
        }

        _headerStreamId = id;
        _headerBlockStarted = Environment.TickCount64;
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
            throw Error(Http2ErrorCode.ProtocolError, "CONTINUATION not following its stream's HEADERS (RFC 9113 §6.10)");
        }

        var endHeaders = (header.Flags & Http2FrameFlags.EndHeaders) != 0;
        CountEmptyFrame(header.Length == 0 && !endHeaders);
        Append(payload);
        if (endHeaders)
        {
            EndHeaderBlock(_headerBlock.WrittenSpan);
        }
    }

    private void Append(in ReadOnlySequence<byte> fragment)
    {
        if (_headerBlock.WrittenCount + fragment.Length > MaxHeaderBlockSize)
        {
            // A header block past any list the limit allows (the CONTINUATION flood): the connection ends.
            throw Error(Http2ErrorCode.EnhanceYourCalm, "A header block past the header list limit (RFC 9113 §10.5.1)");
        }

        foreach (var segment in fragment)
        {
            _headerBlock.Write(segment.Span);
        }
    }

    private void EndHeaderBlock(ReadOnlySpan<byte> block)
    {
        var id = _headerStreamId;
        _headerStreamId = 0;
        Http2Stream? open;
        lock (_output.Sync)
        {
            _streams.TryGetValue(id, out open);
        }

        if (open is not null)
        {
            EndTrailers(open, block);
            return;
        }

        bool ignored, refused;
        lock (_output.Sync)
        {
            // After GOAWAY, new streams are ignored (RFC 9113 §6.8); a reset stream's late head too (§5.1).
            ignored = _goAwaySent || _closed || _recentlyReset.Contains(id);
            refused = !ignored && _streams.Count >= Limits.MaxConcurrentStreams;
        }

        if (ignored || refused)
        {
            _decoder.Decode(block, default(DiscardingFieldSink));
            if (refused)
            {
                // RFC 9113 §5.1.2: past SETTINGS_MAX_CONCURRENT_STREAMS, REFUSED_STREAM (the client may retry it); a stream
                // refused is a stream not answered, as one reset (CountReset).
                StreamError(id, Http2ErrorCode.RefusedStream);
                lock (_output.Sync)
                {
                    CountReset();
                }
            }

            return;
        }

        OpenStream(id, block);
    }

    private void OpenStream(int id, ReadOnlySpan<byte> block)
    {
        Http2Stream stream;
        lock (_output.Sync)
        {
            stream = _pool.TryPop(out var pooled) ? pooled : new Http2Stream(this, _output);
            stream.Open(id, _headerEndStream, _peerInitialWindow, Limits.InitialStreamWindowSize);
        }

        var tooLarge = false;
        try
        {
            _decoder.Decode(block, new RequestFieldSink(stream, trailers: false));
        }
        catch (HeaderListTooLargeException)
        {
            tooLarge = true;
        }

        stream.EndFields(IsTls, tooLarge, _headerSelfDependent);
        lock (_output.Sync)
        {
            _lastStreamId = id;
            switch (stream.Fault)
            {
                case RequestFault.None:
                    _streams[id] = stream;
                    _opened.Add(stream);
                    return;
                case RequestFault.Malformed:
                    // RFC 9113 §8.1.1: a malformed request is a stream error of type PROTOCOL_ERROR.
                    StreamError(id, Http2ErrorCode.ProtocolError);
                    break;
                case RequestFault.TooLarge:
                    RefuseTooLarge(id);
                    break;
            }
        }

        stream.Recycle();
        lock (_output.Sync)
        {
            _pool.Push(stream);
        }
    }

    /// <summary>A head over the limits: 431 (RFC 6585 §5), and RST_STREAM NO_ERROR if the client meant to send a body (RFC 9113 §8.1). Under the output's lock.</summary>
    private void RefuseTooLarge(int id)
    {
        if (_output.IsClosed)
        {
            return;
        }

        var block = new ArrayBufferWriter<byte>(8);
        HpackEncoder.EncodeStatus(block, 431);
        FrameWriter.WriteHeaders(_output.Writer, id, block.WrittenSpan, endStream: true, PeerMaxFrameSize);
        if (!_headerEndStream)
        {
            FrameWriter.WriteRstStream(_output.Writer, id, Http2ErrorCode.NoError);
            _recentlyReset.Add(id);
        }

        _output.ScheduleFlush();
    }

    /// <summary>A header block on an open stream: its trailers, which must end it (RFC 9113 §8.1).</summary>
    private void EndTrailers(Http2Stream stream, ReadOnlySpan<byte> block)
    {
        var fault = false;
        try
        {
            _decoder.Decode(block, new RequestFieldSink(stream, trailers: true));
        }
        catch (HeaderListTooLargeException)
        {
            fault = true;
        }

        lock (_output.Sync)
        {
            if (stream.IsReset)
            {
                return;
            }

            if (stream.IsClosed)
            {
                throw Error(Http2ErrorCode.StreamClosed, "HEADERS on a closed stream (RFC 9113 §5.1)");
            }

            var code = stream.RequestEnded ? Http2ErrorCode.StreamClosed
                : fault || !_headerEndStream || _headerSelfDependent ? Http2ErrorCode.ProtocolError
                : stream.OnTrailers();
            if (code != Http2ErrorCode.NoError)
            {
                stream.Reset(code);
            }
        }
    }
}
