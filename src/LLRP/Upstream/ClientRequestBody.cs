using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Configuration;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Reads one request body at a time from the client input, in its framing (Content-Length, or chunked decoded by
/// <see cref="ChunkedDecoder"/>), never more than the body: what follows stays in the pipe for the next request head.
/// Pieces are slices of the pipe's buffer, valid until <see cref="Advance"/> or the next read. One instance per client connection.
/// When the client asked for <c>Expect: 100-continue</c>, the first read (which HttpClient makes only once the
/// downstream wants the body) answers <c>100 Continue</c>, since HttpClient swallows the downstream's own.
/// </summary>
internal sealed partial class RequestBodyReader(PipeReader input, PipeWriter output, Func<ValueTask<bool>> flushOutput, ProxyOptions options)
{
    private BodyFraming _framing;
    private long _remaining;
    private long _total;
    private ChunkedDecoder _decoder;
    private bool _sendContinue;
    private bool _holding;
    private SequencePosition _pieceEnd;
    private long _pieceBytes;

    public RequestBodyFailure Failure { get; private set; }

    /// <summary>Bytes of the client input this body has consumed, framing included.</summary>
    public long BytesConsumed { get; private set; }

    /// <summary>What was wrong with the body when <see cref="Failure"/> is <see cref="RequestBodyFailure.Rejected"/>.</summary>
    public RejectionReason Rejection { get; private set; }

    /// <summary>The whole body has been read and consumed from the client input, which is at the next request head.</summary>
    public bool IsCompleted => !_holding && _framing switch
    {
        BodyFraming.ContentLength => _remaining == 0,
        BodyFraming.Chunked => _decoder.IsCompleted,
        _ => true,
    };

    /// <param name="sendContinue">The client is HTTP/1.1 and sent <c>Expect: 100-continue</c>.</param>
    public void Reset(BodyFraming framing, long contentLength, bool sendContinue)
    {
        _framing = framing;
        _remaining = framing == BodyFraming.ContentLength ? contentLength : 0;
        _total = 0;
        _decoder = new ChunkedDecoder(options.MaxChunkLineSize, options.MaxRequestHeadersTotalSize);
        _sendContinue = sendContinue && framing != BodyFraming.None && (framing == BodyFraming.Chunked || contentLength > 0);
        _holding = false;
        Failure = RequestBodyFailure.None;
        BytesConsumed = 0;
    }

    /// <summary>
    /// The next piece of the body, at most <paramref name="maxLength"/> bytes; empty at its end. Throws when the client
    /// closes early or sends a bad body (see <see cref="Failure"/>), or when the read is cancelled.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<ReadOnlySequence<byte>> ReadAsync(int maxLength, CancellationToken cancellationToken)
    {
        Advance();
        if (IsCompleted)
        {
            return default;
        }

        if (_sendContinue)
        {
            _sendContinue = false;
            await WriteContinueAsync();
        }

        while (true)
        {
            var result = await input.ReadAsync(cancellationToken);
            if (result.IsCanceled)
            {
                input.AdvanceTo(result.Buffer.Start);
                throw new OperationCanceledException("Reading the request body was stopped.");
            }

            var buffer = result.Buffer;
            var piece = _framing == BodyFraming.ContentLength ? TakeContentLength(buffer, maxLength) : TakeChunked(buffer, maxLength);
            if (piece is { } data)
            {
                return data;
            }

            if (result.IsCompleted)
            {
                Failure = RequestBodyFailure.ClientAborted;
                throw new IOException("The client closed the connection before the end of the request body.");
            }
        }
    }

    /// <summary>Consumes the piece returned last.</summary>
    public void Advance()
    {
        if (_holding)
        {
            _holding = false;
            BytesConsumed += _pieceBytes;
            input.AdvanceTo(_pieceEnd);
        }
    }

    /// <summary>Wakes a read in progress (or the next one), which then throws <see cref="OperationCanceledException"/>.</summary>
    public void CancelPendingRead() => input.CancelPendingRead();

    /// <summary>Up to <paramref name="maxLength"/> bytes of the rest of the body; null (all consumed) when the buffer is empty.</summary>
    private ReadOnlySequence<byte>? TakeContentLength(in ReadOnlySequence<byte> buffer, int maxLength)
    {
        if (buffer.IsEmpty)
        {
            input.AdvanceTo(buffer.End);
            return null;
        }

        var take = Math.Min(Math.Min(_remaining, buffer.Length), maxLength);
        _remaining -= take;
        return Hold(buffer, buffer.Slice(0, take));
    }

    /// <summary>Keeps <paramref name="piece"/> of <paramref name="buffer"/> unconsumed until <see cref="Advance"/>.</summary>
    private ReadOnlySequence<byte> Hold(in ReadOnlySequence<byte> buffer, in ReadOnlySequence<byte> piece)
    {
        _holding = true;
        _pieceEnd = piece.End;
        _pieceBytes = buffer.Slice(buffer.Start, piece.End).Length;
        return piece;
    }

    private async ValueTask WriteContinueAsync()
    {
        output.Write("HTTP/1.1 100 Continue\r\n\r\n"u8);
        if (!await flushOutput())
        {
            Failure = RequestBodyFailure.ClientAborted;
            throw new IOException("The client connection closed before 100 Continue could be sent.");
        }
    }
}
