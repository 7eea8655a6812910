using System.Buffers;
using LLRP.ClientSide;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// A response body for an HTTP/1.1 client's <see cref="ClientResponseWriter"/>: written in the response's framing, a
/// flush due every <see cref="MaxUnflushedBody"/> bytes, and, when chunked, ended with the trailers of
/// <paramref name="trailersOf"/> if it has any.
/// </summary>
/// <param name="trailersOf">
/// The response whose trailers end a chunked body, when the client said it accepts them (<c>TE: trailers</c>, RFC 9110
/// §10.1.4); null drops them.
/// </param>
internal struct ClientWriterBodySink(ClientResponseWriter client, HttpResponseMessage? trailersOf) : IResponseBodySink
{
    /// <summary>Bytes read from a response body per write.</summary>
    public const int BufferSize = 16 * 1024;

    /// <summary>Most body bytes written to the client without a flush, so a destination faster than the client meets back-pressure.</summary>
    private const int MaxUnflushedBody = 64 * 1024;

    private int _unflushed;

    public readonly bool FlushDue => _unflushed >= MaxUnflushedBody;

    public ValueTask<bool> FlushAsync()
    {
        _unflushed = 0;
        return client.FlushAsync();
    }

    public ValueTask<bool> WriteAsync(ReadOnlyMemory<byte> bytes)
    {
        client.WriteBody(new ReadOnlySequence<byte>(bytes));
        _unflushed += bytes.Length;
        return ValueTask.FromResult(true);
    }

    public readonly void End()
    {
        if (trailersOf is { TrailingHeaders.NonValidated.Count: > 0 })
        {
            client.WriteEnd(TrailerFields.Lines(trailersOf.TrailingHeaders.NonValidated).WrittenSpan);
        }
        else
        {
            client.WriteEnd();
        }
    }
}
