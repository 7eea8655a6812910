using System.Buffers;
using LLRP.Diagnostics;
using LLRP.Http1;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;

namespace LLRP.Http2;

/// <summary>
/// The head of a request the HTTP/2 server decoded, as HTTP/1.1 bytes parsed by <see cref="RequestHeadParser"/>, so
/// HTTP/2 requests are routed, limited and rewritten by the same rules and code as HTTP/1.1 ones. LLRP's own server
/// wrote those bytes while it decoded the fields (<see cref="IRequestHeadBytesFeature"/>); otherwise (Kestrel's server,
/// or a request whose fields were made strings) the strings are written out here: <c>:method</c> and <c>:path</c> (as
/// received) make the request line, <c>:authority</c> the <c>Host</c> (Kestrel puts it there), then every field in order.
/// A body the client may still send without a <c>content-length</c> is marked chunked, so the head says a body follows.
/// Used by one request stream at a time.
/// </summary>
internal sealed class RenderedRequestHead
{
    private readonly ArrayBufferWriter<byte> _bytes = new(1024);

    public RequestHead Head { get; } = new();

    /// <param name="written">The head as the server wrote it (<see cref="IRequestHeadBytesFeature"/>), or null.</param>
    /// <exception cref="HttpMessageException">The request is one the HTTP/1.1 front end refuses, or over <paramref name="limits"/>.</exception>
    public RequestHead Parse(HttpContext context, ReadOnlyMemory<byte>? written, in RequestLimits limits)
    {
        if (written is { } head)
        {
            return Parse(head, limits);
        }

        _bytes.ResetWrittenCount();
        var request = context.Request;
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(_bytes, 256);
        writer.WriteLatin1(request.Method);
        writer.Write(" "u8);
        writer.WriteLatin1(context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget);
        writer.Write(" HTTP/1.1\r\n"u8);
        writer.Commit();
        if (request.Headers is HeaderDictionary fields)
        {
            AddAll(fields.GetEnumerator());
        }
        else
        {
            AddAll(request.Headers.GetEnumerator());
        }

        if (request.ContentLength is null && context.Features.Get<IHttpRequestBodyDetectionFeature>()?.CanHaveBody == true)
        {
            Add("Transfer-Encoding", "chunked");
        }

        _bytes.Write("\r\n"u8);
        return Parse(_bytes.WrittenMemory, limits);
    }

    private RequestHead Parse(ReadOnlyMemory<byte> head, in RequestLimits limits)
    {
        if (!RequestHeadParser.TryParse(new ReadOnlySequence<byte>(head), Head, limits, out _))
        {
            HttpMessageException.Throw(RejectionReason.InvalidRequestLine);
        }

        return Head;
    }

    /// <summary>Every field in order; generic so that the own server's <see cref="HeaderDictionary"/> is walked with its struct enumerator, not a boxed one.</summary>
    private void AddAll<TFields>(TFields fields)
        where TFields : IEnumerator<KeyValuePair<string, StringValues>>
    {
        while (fields.MoveNext())
        {
            var (name, values) = fields.Current;
            foreach (var value in values)
            {
                Add(name, value);
            }
        }

        fields.Dispose();
    }

    private void Add(string name, string? value) => FieldLine.Append(_bytes, name, value);
}
