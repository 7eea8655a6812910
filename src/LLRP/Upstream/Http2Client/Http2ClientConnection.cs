using System.Buffers;
using LLRP.Configuration;
using LLRP.Http2.Codec;
using LLRP.Upstream.Sockets;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// One HTTP/2 connection to a destination (RFC 9113), the client end: the preface and SETTINGS go first
/// (<see cref="StartAsync"/>), one read loop demultiplexes the destination's frames to the streams
/// (<c>Http2ClientConnection.Frames.cs</c>), and the frames of every stream leave through one
/// <see cref="FrameOutput{TStream}"/>, flushed once for what the writers of a moment wrote. A stream is reserved
/// (<see cref="TryReserve"/>) within the destination's SETTINGS_MAX_CONCURRENT_STREAMS, opened with its HEADERS
/// (<see cref="Open"/>), fed with DATA within both send windows (<see cref="SendDataAsync"/>), and given back
/// (<see cref="Release"/>); what the exchange reads of a response body goes back to the destination as WINDOW_UPDATE
/// (<see cref="Consumed"/>), so a client that reads slowly slows its destination down. A connection that carried no
/// stream for the idle timeout ends with GOAWAY (<see cref="CloseIfIdle"/>).
/// </summary>
internal sealed partial class Http2ClientConnection
{
    /// <summary>The stream receive window announced (SETTINGS_INITIAL_WINDOW_SIZE): what one response may have in flight.</summary>
    public const int StreamWindow = 1024 * 1024;

    /// <summary>The connection receive window opened right after the preface (RFC 9113 §6.9.2: it starts at 65,535).</summary>
    public const int ConnectionWindow = 16 * 1024 * 1024;

    private readonly UpstreamConnection _transport;
    private readonly Http2DestinationConnections _owner;
    private readonly FrameOutput<Http2ClientStream> _output;
    private readonly Dictionary<int, Http2ClientStream> _streams = [];
    private readonly int _maxResponseHeadSize;
    private int _nextStreamId = 1;
    private int _reserved;
    private int _peerMaxConcurrentStreams = int.MaxValue;
    private int _peerInitialWindow = Http2Settings.MinWindowSize;
    private int _peerMaxFrameSize = Http2Settings.MinFrameSize;
    private bool _closed;
    /// <summary>Closed by our end: idle (<see cref="CloseIfIdle"/>) or with the pool (<see cref="Shutdown"/>).</summary>
    private bool _closing;
    private Task _reading = Task.CompletedTask;
    private TimeSpan _closeTimeout;

    /// <summary><see cref="Environment.TickCount64"/> when a sweep first saw the connection with no stream; 0 when it has one.</summary>
    private long _idleSince;

    /// <summary>The next stream id when <see cref="_idleSince"/> was taken: a stream opened since ends the idle time.</summary>
    private int _idleNextStreamId;

    /// <param name="transport">The connection, opened by the upstream connector.</param>
    /// <param name="owner">The destination's connections, told when this one ends.</param>
    /// <param name="maxResponseHeadSize">SETTINGS_MAX_HEADER_LIST_SIZE announced and enforced on every response's fields.</param>
    public Http2ClientConnection(UpstreamConnection transport, Http2DestinationConnections owner, int maxResponseHeadSize)
    {
        _transport = transport;
        _owner = owner;
        _maxResponseHeadSize = maxResponseHeadSize;
        _output = new FrameOutput<Http2ClientStream>(transport.Output);
        _decoder = new HpackDecoder(HeaderTableSize, maxResponseHeadSize);
        _receiveWindow = ConnectionWindow;
    }

    /// <summary>The destination sent GOAWAY, the connection or its output ended, or our end closed it: no new stream goes on it. Under the output's lock.</summary>
    private bool Unusable => _closed || _goAwayReceived || _closing || _output.IsClosed || _nextStreamId < 0;

    /// <summary>New streams may go on the connection (not <see cref="Unusable"/>).</summary>
    public bool IsUsable
    {
        get
        {
            lock (_output.Sync)
            {
                return !Unusable;
            }
        }
    }

    /// <summary>
    /// Sends the preface (RFC 9113 §3.4): the magic, our SETTINGS (no push, our windows and header list limit) and the
    /// connection window opened; starts the read loop, and waits for the destination's SETTINGS within
    /// <paramref name="timeout"/>, so its stream limit is known before the first stream.
    /// </summary>
    /// <returns>False when the destination did not answer with HTTP/2 in time: the connection is closed.</returns>
    public async ValueTask<bool> StartAsync(TimeSpan timeout)
    {
        _closeTimeout = timeout;
        lock (_output.Sync)
        {
            var writer = _output.Writer;
            writer.Write(ConnectionPreface.Bytes);
            FrameWriter.WriteSettings(writer,
            [
                (SettingIds.EnablePush, 0u),
                (SettingIds.InitialWindowSize, (uint)StreamWindow),
                (SettingIds.MaxHeaderListSize, (uint)_maxResponseHeadSize),
            ]);
            FrameWriter.WriteWindowUpdate(writer, 0, ConnectionWindow - Http2Settings.MinWindowSize);
            _output.ScheduleFlush();
        }

        _reading = ReadLoopAsync();
        try
        {
            return await _settingsReceived.Task.WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            _transport.Abort();
            return false;
        }
    }

    /// <summary>
    /// Closes the connection when it carried no stream for <paramref name="idleTimeoutMs"/>, as the sweeps see it: no stream
    /// in flight at one sweep, none opened since, and the time passed. GOAWAY with NO_ERROR goes first (RFC 9113 §6.8: the
    /// graceful end, its last stream id 0 as a client processes no stream the server opens), then our end of the connection
    /// is closed; the destination is given the connect timeout to close its end before the connection is aborted.
    /// </summary>
    /// <returns>True when the connection is closing now: it leaves its destination's set.</returns>
    public bool CloseIfIdle(long now, long idleTimeoutMs)
    {
        lock (_output.Sync)
        {
            if (Unusable)
            {
                return false;
            }

            var idle = _streams.Count == 0 && _reserved == 0;
            if (!idle || _idleSince == 0 || _idleNextStreamId != _nextStreamId)
            {
                (_idleSince, _idleNextStreamId) = (idle ? now : 0, _nextStreamId);
                return false;
            }

            if (now - _idleSince < idleTimeoutMs)
            {
                return false;
            }

            GoAwayNoError();
        }

        _ = EndIdleAsync();
        return true;
    }

    /// <summary>
    /// Ends the connection, streams in flight or not, as the pool is disposed: GOAWAY with NO_ERROR (RFC 9113 §6.8, the
    /// last stream id 0), flushed, then the connection aborted.
    /// </summary>
    public void Shutdown()
    {
        lock (_output.Sync)
        {
            GoAwayNoError();
        }

        _ = AbortAfterFlushAsync();
    }

    /// <summary>Our end closes the connection: no new stream goes on it, and GOAWAY with NO_ERROR, its last stream id 0, is sent. Under the output's lock.</summary>
    private void GoAwayNoError()
    {
        _closing = true;
        if (!_output.IsClosed)
        {
            FrameWriter.WriteGoAway(_output.Writer, 0, Http2ErrorCode.NoError, default);
            _output.ScheduleFlush();
        }
    }

    private async Task AbortAfterFlushAsync()
    {
        await _output.CompleteAsync();
        _transport.Abort();
    }

    /// <summary>Flushes the GOAWAY and ends our side; aborts the connection if the destination has not closed its end in time.</summary>
    private async Task EndIdleAsync()
    {
        await _output.CompleteAsync();
        try
        {
            await _reading.WaitAsync(_closeTimeout);
        }
        catch (TimeoutException)
        {
            _transport.Abort();
        }
    }

    /// <summary>Takes a stream slot within the destination's SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 §5.1.2); false when none is free.</summary>
    public bool TryReserve()
    {
        lock (_output.Sync)
        {
            if (Unusable || _reserved >= _peerMaxConcurrentStreams)
            {
                return false;
            }

            _reserved++;
            return true;
        }
    }

    /// <summary>
    /// Opens a reserved stream with its field block (RFC 9113 §6.2, §6.10: HEADERS and CONTINUATION within the
    /// destination's SETTINGS_MAX_FRAME_SIZE); stream ids rise in the order the HEADERS leave (§5.1.1).
    /// </summary>
    /// <returns>False when the connection became unusable meanwhile: the slot is given back and nothing was sent.</returns>
    public bool Open(Http2ClientStream stream, ReadOnlySpan<byte> fieldBlock, bool endStream)
    {
        lock (_output.Sync)
        {
            if (Unusable)
            {
                _reserved--;
                return false;
            }

            var id = _nextStreamId;
            _nextStreamId += 2;
            (stream.Id, stream.SendWindow, stream.ReceiveWindow, stream.LocalEnded) = (id, _peerInitialWindow, StreamWindow, endStream);
            _streams.Add(id, stream);
            FrameWriter.WriteHeaders(_output.Writer, id, fieldBlock, endStream, _peerMaxFrameSize);
            _output.ScheduleFlush(afterQueuedWork: true);
            return true;
        }
    }

    /// <summary>
    /// Sends <paramref name="data"/> as DATA frames within the stream's and the connection's send windows (RFC 9113
    /// §6.9.1) and the destination's SETTINGS_MAX_FRAME_SIZE, waiting for WINDOW_UPDATE where they are spent. The
    /// windows bound what waits in the output for the transport, so no wait for its flush is needed.
    /// </summary>
    /// <returns>False when the stream or the connection ended first.</returns>
    public async ValueTask<bool> SendDataAsync(Http2ClientStream stream, ReadOnlySequence<byte> data, bool endStream)
    {
        while (true)
        {
            Task wait;
            lock (_output.Sync)
            {
                if (stream.LocalEnded || _output.IsClosed)
                {
                    return false;
                }

                while (true)
                {
                    var count = (int)Math.Min(Math.Min(data.Length, _peerMaxFrameSize), Math.Min(stream.SendWindow, _output.SendWindow));
                    if (count <= 0 && !data.IsEmpty)
                    {
                        break;
                    }

                    var last = count == data.Length;
                    FrameWriter.WriteData(_output.Writer, stream.Id, data.Slice(0, count), endStream && last);
                    stream.SendWindow -= count;
                    _output.SendWindow -= count;
                    data = data.Slice(count);
                    if (last)
                    {
                        if (endStream)
                        {
                            stream.LocalEnded = true;
                            RemoveIfClosed(stream);
                        }

                        break;
                    }
                }

                _output.ScheduleFlush();
                if (data.IsEmpty)
                {
                    return true;
                }

                wait = stream.WaitForWindow();
                if (_output.SendWindow <= 0)
                {
                    _output.WindowWaiters.Add(stream);
                }
            }

            await wait;
        }
    }

    /// <summary>Ends the request with its trailers: a field block with END_STREAM (RFC 9113 §8.1).</summary>
    /// <returns>False when the stream or the connection ended first.</returns>
    public bool SendTrailers(Http2ClientStream stream, ReadOnlySpan<byte> fieldBlock)
    {
        lock (_output.Sync)
        {
            if (stream.LocalEnded || _output.IsClosed)
            {
                return false;
            }

            FrameWriter.WriteHeaders(_output.Writer, stream.Id, fieldBlock, endStream: true, _peerMaxFrameSize);
            stream.LocalEnded = true;
            RemoveIfClosed(stream);
            _output.ScheduleFlush();
            return true;
        }
    }

    /// <summary>
    /// The exchange read <paramref name="count"/> bytes of the stream's body: once half the stream window is read, it
    /// is opened again with WINDOW_UPDATE (RFC 9113 §6.9), unless the destination has ended the stream.
    /// </summary>
    public void Consumed(Http2ClientStream stream, int count)
    {
        lock (_output.Sync)
        {
            stream.Unannounced += count;
            if (stream.RemoteEnded || stream.Unannounced < StreamWindow / 2 || _output.IsClosed)
            {
                return;
            }

            FrameWriter.WriteWindowUpdate(_output.Writer, stream.Id, stream.Unannounced);
            stream.ReceiveWindow += stream.Unannounced;
            stream.Unannounced = 0;
            _output.ScheduleFlush();
        }
    }

    /// <summary>
    /// Gives the stream's slot back. A stream still open either way is reset with CANCEL (RFC 9113 §8.1: the client
    /// abandons a response it no longer needs, or a request the destination answered before reading it all).
    /// </summary>
    public void Release(Http2ClientStream stream)
    {
        lock (_output.Sync)
        {
            if (!_streams.Remove(stream.Id))
            {
                return;
            }

            _reserved--;
            if (!_output.IsClosed)
            {
                FrameWriter.WriteRstStream(_output.Writer, stream.Id, Http2ErrorCode.Cancel);
                _output.ScheduleFlush();
            }

            (stream.LocalEnded, stream.RemoteEnded) = (true, true);
            stream.WakeSender();
            CloseIfDrained();
        }
    }

    /// <summary>Gives a reserved slot back when no stream was opened on it.</summary>
    public void Unreserve()
    {
        lock (_output.Sync)
        {
            _reserved--;
            CloseIfDrained();
        }
    }

    /// <summary>A stream closed both ways leaves the table and frees its slot (RFC 9113 §5.1.2). Under the output's lock.</summary>
    private void RemoveIfClosed(Http2ClientStream stream)
    {
        if (stream.LocalEnded && stream.RemoteEnded && _streams.Remove(stream.Id))
        {
            _reserved--;
            CloseIfDrained();
        }
    }

    /// <summary>After GOAWAY, the connection ends once its last stream has (RFC 9113 §6.8). Under the output's lock.</summary>
    private void CloseIfDrained()
    {
        if (_goAwayReceived && _streams.Count == 0 && _reserved == 0)
        {
            _transport.Abort();
        }
    }
}
