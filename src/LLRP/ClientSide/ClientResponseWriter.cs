using System.Buffers;
using System.Diagnostics;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Http1.Transforms;
using LLRP.Tasks;
using Microsoft.AspNetCore.Connections;

namespace LLRP.ClientSide;

/// <summary>
/// Where every mode writes its responses: the client connection's output, with the framing rules of
/// <see cref="ResponseFraming"/> and <see cref="ResponseHeadWriter"/> applied once. Nothing is flushed until
/// <see cref="FlushAsync"/>, so the responses to one batch leave together. The final responses of the batch are recorded
/// (<see cref="Recorded"/>) for the metrics and the access log. One per client connection, owned by its session.
/// </summary>
/// <param name="timed">The access log is on: each response's head time and body bytes are recorded too.</param>
internal sealed class ClientResponseWriter(PipeWriter output, ProxyMetrics metrics, bool timed) : IRoutedResponse
{
    /// <summary>Most bytes held unflushed (Kestrel's response buffer size): past it the session flushes even while requests keep coming.</summary>
    private const int MaxUnflushed = 64 * 1024;

    private ResponseFraming _framing;
    private volatile bool _stopping;
    private ResponseRecord[] _records = new ResponseRecord[4];
    private int _recorded;

    /// <summary>The client went away: a flush failed or its connection completed.</summary>
    public bool ClientGone { get; private set; }

    /// <summary>The proxy is stopping: every response from now on closes its connection, and says so.</summary>
    public bool Stopping
    {
        get => _stopping;
        set => _stopping = value;
    }

    /// <summary>A field line every final response of the batch carries (the session affinity's binding); empty for none.</summary>
    public byte[] AffinityLine { get; set; } = [];

    /// <summary>The response transforms of the route of the batch being answered.</summary>
    public ResponseTransforms Transforms { get; set; } = ResponseTransforms.None;

    /// <summary>How the response being forwarded reaches the client.</summary>
    public ResponseFraming Framing => _framing;

    /// <summary>How many final responses were written since <see cref="ClearRecords"/>, in the batch's order.</summary>
    public int Recorded => _recorded;

    /// <summary>The <paramref name="index"/>th final response written since <see cref="ClearRecords"/>.</summary>
    public ref readonly ResponseRecord RecordOf(int index) => ref _records[index];

    /// <summary>The batch's responses were counted and logged.</summary>
    public void ClearRecords() => _recorded = 0;

    /// <summary>
    /// More is written than a flush should wait for: a client that keeps pipelining requests without reading must still
    /// meet back-pressure, so responses are not held in memory without bound.
    /// </summary>
    public bool HasBacklog => output.CanGetUnflushedBytes && output.UnflushedBytes >= MaxUnflushed;

    /// <summary>Writes an interim response, to an HTTP/1.1 client only (RFC 9110 §15.2).</summary>
    public void WriteInterim(ResponseHead head, bool isHttp10Client)
    {
        if (!isHttp10Client)
        {
            var writer = new BufferWriter<PipeWriterAdapter>(new PipeWriterAdapter(output), head.Source.Length);
            ResponseHeadWriter.WriteInterim(ref writer, head);
            writer.Commit();
        }
    }

    /// <summary>Writes the <c>101 Switching Protocols</c> after which the connection is a tunnel: nothing framed follows it.</summary>
    public void WriteSwitchingProtocols(ResponseHead head)
    {
        _framing = new ResponseFraming(BodyFraming.None, Close: true, Http10KeepAlive: false);
        var writer = new BufferWriter<PipeWriterAdapter>(new PipeWriterAdapter(output), head.Source.Length + 64);
        ResponseHeadWriter.WriteSwitchingProtocols(ref writer, head);
        writer.Commit();
        Record(head.StatusCode);
    }

    /// <summary>Decides the framing of a final response and writes its head.</summary>
    /// <param name="persistent">As far as the request goes, the client connection may carry another request after this one.</param>
    /// <param name="moreFollow">
    /// Responses to later requests of the batch, already sent upstream, follow this one: when the proxy is stopping, only
    /// the batch's last response says close, so that every request the destination received is answered.
    /// </param>
    public ResponseFraming WriteHead(ResponseHead head, bool isHeadRequest, bool isHttp10Client, bool persistent, bool moreFollow = false)
    {
        _framing = ResponseFraming.For(head, isHeadRequest, isHttp10Client, persistent && (moreFollow || !_stopping));
        var writer = new BufferWriter<PipeWriterAdapter>(new PipeWriterAdapter(output), head.Source.Length + 64 + Transforms.Overhead + AffinityLine.Length);
        ResponseHeadWriter.Write(ref writer, head, _framing, Transforms, AffinityLine);
        writer.Commit();
        Record(head.StatusCode);
        return _framing;
    }

    /// <summary>Writes a piece of the body in the response's framing: one chunk when chunked.</summary>
    public void WriteBody(in ReadOnlySequence<byte> data)
    {
        if (data.IsEmpty)
        {
            return;
        }

        ChunkedEncoding.WriteBodyPiece(output, data, _framing.Body == BodyFraming.Chunked);
        if (timed && _recorded > 0)
        {
            _records[_recorded - 1].BodyBytes += data.Length;
        }
    }

    /// <summary>Ends the body: the last chunk when chunked.</summary>
    public void WriteEnd()
    {
        if (_framing.Body == BodyFraming.Chunked)
        {
            ChunkedEncoding.WriteLastChunk(output);
        }
    }

    /// <summary>
    /// Ends the body with a trailer section (<paramref name="trailerLines"/>, field lines each ending in CRLF) when it is
    /// chunked (RFC 9112 §7.1.2); a body of any other framing has nowhere to carry them, and they are dropped.
    /// </summary>
    public void WriteEnd(ReadOnlySpan<byte> trailerLines)
    {
        if (_framing.Body == BodyFraming.Chunked)
        {
            ChunkedEncoding.WriteLastChunk(output, trailerLines);
        }
    }

    /// <summary>Writes a response the proxy makes itself (an error, <c>100 Continue</c>): bytes built once.</summary>
    public void WriteRaw(ReadOnlySpan<byte> response) => output.Write(response);

    /// <summary>Flushes what was written; false when the client is gone.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<bool> FlushAsync()
    {
        if (ClientGone)
        {
            return false;
        }

        try
        {
            if (output.CanGetUnflushedBytes)
            {
                metrics.BytesSent(output.UnflushedBytes);
            }

            ClientGone = (await output.FlushAsync()).IsCompleted;
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            ClientGone = true;
        }

        return !ClientGone;
    }

    private void Record(int status)
    {
        if (_recorded == _records.Length)
        {
            Array.Resize(ref _records, _recorded * 2);
        }

        _records[_recorded++] = new ResponseRecord { Status = status, HeadTimestamp = timed ? Stopwatch.GetTimestamp() : 0 };
    }

    /// <summary>Failures of a connection's transport, as opposed to bugs.</summary>
    public static bool IsConnectionFailure(Exception e)
        => e is IOException or ConnectionResetException or ConnectionAbortedException or ObjectDisposedException;
}
