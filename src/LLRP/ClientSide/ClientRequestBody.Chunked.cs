using System.Buffers;
using LLRP.Diagnostics;
using LLRP.Http1;

namespace LLRP.ClientSide;

internal sealed partial class ClientRequestBody
{
    /// <summary>
    /// Decodes chunk data out of <paramref name="buffer"/>, feeding the decoder at most <paramref name="maxLength"/> bytes
    /// at a time. Returns the next data (empty once the last chunk and trailers are consumed), or null when the whole
    /// buffer was framing and was consumed.
    /// </summary>
    private ReadOnlySequence<byte>? TakeChunked(in ReadOnlySequence<byte> buffer, int maxLength)
    {
        var rest = buffer;
        try
        {
            while (true)
            {
                var window = rest.Length > maxLength ? rest.Slice(0, maxLength) : rest;
                var status = _decoder.Decode(window, out var consumed, out var data);
                if (status == ChunkedDecodeStatus.Data)
                {
                    _total += data.Length;
                    if (limits.Exceeded(_total))
                    {
                        HttpMessageException.Throw(RejectionReason.BodyTooLarge);
                    }

                    return Hold(buffer, data);
                }

                rest = rest.Slice(consumed);
                if (status == ChunkedDecodeStatus.Completed)
                {
                    BytesConsumed += buffer.Slice(buffer.Start, consumed).Length;
                    input.AdvanceTo(consumed);
                    _completed = true;
                    return ReadOnlySequence<byte>.Empty;
                }

                if (rest.IsEmpty)
                {
                    BytesConsumed += buffer.Length;
                    input.AdvanceTo(buffer.End);
                    return null;
                }
            }
        }
        catch (HttpMessageException e)
        {
            input.AdvanceTo(buffer.Start);
            Failure = RequestBodyFailure.Rejected;
            Rejection = e.Reason;
            throw;
        }
    }
}
