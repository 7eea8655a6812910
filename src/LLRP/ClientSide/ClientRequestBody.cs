using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tasks;

namespace LLRP.ClientSide;

/// <summary>
/// A request body still to be read from the client, for every mode: read in its framing (Content-Length, or chunked
/// decoded by <see cref="ChunkedDecoder"/>), never past its end, so what follows stays in the pipe for the next request
/// head. Pieces are slices of the pipe's buffer, valid until <see cref="Advance"/> or the next read. When the forwarder
/// asked (<see cref="ForwarderTraits.AnswersContinue"/>), the first read answers <c>Expect: 100-continue</c> with
/// <c>100 Continue</c>. One instance per client connection, reset for each body.
/// </summary>
internal sealed partial class ClientRequestBody(PipeReader input, ClientResponseWriter response, BodyLimits limits)
{
    private static readonly byte[] Continue = "HTTP/1.1 100 Continue\r\n\r\n"u8.ToArray();

    private BodyFraming _framing;
    private long _remaining;
    private long _total;
    private ChunkedDecoder _decoder;
    private bool _sendContinue;
    private bool _holding;
    private SequencePosition _pieceEnd;
    private long _pieceBytes;
    private volatile bool _completed = true;

    public RequestBodyFailure Failure { get; private set; }

    /// <summary>Bytes of the client input this body has consumed, framing included.</summary>
    public long BytesConsumed { get; private set; }

    /// <summary>What was wrong with the body when <see cref="Failure"/> is <see cref="RequestBodyFailure.Rejected"/>.</summary>
    public RejectionReason Rejection { get; private set; }

    /// <summary>The client sent <c>Expect: 100-continue</c>: it may hold the body back until told to go on (RFC 9110 §10.1.1).</summary>
    public bool ExpectsContinue { get; private set; }

    /// <summary>Some of the body has been read from the client.</summary>
    public bool HasStarted => BytesConsumed > 0 || _holding;

    /// <summary>The body is known to be chunked, so its length is unknown until its end.</summary>
    public bool IsChunked => _framing == BodyFraming.Chunked;

    /// <summary>
    /// The whole body has been read and consumed from the client input, which is at the next request head. Safe to read
    /// from another thread than the one reading the body.
    /// </summary>
    public bool IsCompleted => _completed;

    /// <param name="expectsContinue">The client is HTTP/1.1 and sent <c>Expect: 100-continue</c>.</param>
    /// <param name="sendContinue">Answer <c>100 Continue</c> on the first read, for a forwarder whose client swallows the destination's.</param>
    public void Reset(BodyFraming framing, long contentLength, bool expectsContinue, bool sendContinue)
    {
        ExpectsContinue = expectsContinue;
        _framing = framing;
        _remaining = framing == BodyFraming.ContentLength ? contentLength : 0;
        _total = 0;
        _decoder = limits.NewChunkedDecoder();
        _sendContinue = expectsContinue && sendContinue && (framing == BodyFraming.Chunked || _remaining > 0);
        _holding = false;
        _completed = framing == BodyFraming.None || (framing == BodyFraming.ContentLength && _remaining == 0);
        Failure = RequestBodyFailure.None;
        BytesConsumed = 0;
    }

    /// <summary>
    /// The next piece of the body, at most <paramref name="maxLength"/> bytes; empty at its end. Throws when the client
    /// closes early or sends a bad body (see <see cref="Failure"/>), or <see cref="OperationCanceledException"/> when the
    /// read is cancelled.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ReadOnlySequence<byte>> ReadAsync(int maxLength, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxLength);
        Advance();
        if (_completed)
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
            ReadResult result;
            try
            {
                result = await input.ReadAsync(cancellationToken);
            }
            catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
            {
                Failure = RequestBodyFailure.ClientAborted;
                throw;
            }

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
                Failure = RequestBodyFailure.Rejected;
                Rejection = RejectionReason.UnexpectedEndOfBody;
                throw new HttpMessageException(RejectionReason.UnexpectedEndOfBody);
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
            if (_framing == BodyFraming.ContentLength && _remaining == 0)
            {
                _completed = true;
            }
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
        response.WriteRaw(Continue);
        if (!await response.FlushAsync())
        {
            Failure = RequestBodyFailure.ClientAborted;
            throw new IOException("The client connection closed before 100 Continue could be sent.");
        }
    }
}
