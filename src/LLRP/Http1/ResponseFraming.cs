using System.Buffers;
using System.IO.Pipelines;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// How a response is framed for the client, decided as raw mode does (RFC 9112 §6.3): no body for HEAD, 204 and 304;
/// the downstream's Content-Length when it sent one; else chunked for an HTTP/1.1 client, close-delimited for HTTP/1.0.
/// </summary>
/// <param name="Body">None, ContentLength, Chunked or CloseDelimited.</param>
/// <param name="Close">The client connection ends after this response.</param>
/// <param name="Http10KeepAlive">The client is HTTP/1.0 and its connection persists, so the response says so.</param>
internal readonly record struct ResponseFraming(BodyFraming Body, bool Close, bool Http10KeepAlive)
{
    /// <param name="persistent">The client connection may carry another request (asked for, body read to the end, not stopping).</param>
    public static ResponseFraming For(int status, long? contentLength, bool isHead, bool isHttp10, bool persistent)
    {
        var body = isHead || status is 204 or 304 ? BodyFraming.None
            : contentLength is not null ? BodyFraming.ContentLength
            : isHttp10 ? BodyFraming.CloseDelimited
            : BodyFraming.Chunked;
        var close = !persistent || body == BodyFraming.CloseDelimited;
        return new ResponseFraming(body, close, isHttp10 && !close);
    }

    /// <summary>Writes the framing and persistence fields, then the empty line that ends the head.</summary>
    public void WriteFields<TWriter>(ref BufferWriter<TWriter> writer, int status, long? contentLength)
        where TWriter : IBufferWriter<byte>
    {
        if (Body == BodyFraming.Chunked)
        {
            writer.Write("Transfer-Encoding: chunked\r\n"u8);
        }
        else if (contentLength is { } length && status != 204)
        {
            writer.Write("Content-Length: "u8);
            writer.WriteDecimal(length);
            writer.Write("\r\n"u8);
        }

        if (Close)
        {
            writer.Write("Connection: close\r\n"u8);
        }
        else if (Http10KeepAlive)
        {
            writer.Write("Connection: keep-alive\r\n"u8);
        }

        writer.Write("\r\n"u8);
    }

    /// <summary>Writes a piece of the body: as one chunk when chunked, else as is.</summary>
    public void WriteBody(PipeWriter output, ReadOnlySpan<byte> data)
    {
        if (Body != BodyFraming.Chunked)
        {
            output.Write(data);
            return;
        }

        if (data.IsEmpty)
        {
            return;
        }

        var writer = new BufferWriter<PipeWriter>(output, data.Length + 16);
        writer.WriteHex(data.Length);
        writer.Write("\r\n"u8);
        writer.Write(data);
        writer.Write("\r\n"u8);
        writer.Commit();
    }

    /// <summary>Ends the body: the last chunk when chunked.</summary>
    public void WriteEnd(PipeWriter output)
    {
        if (Body == BodyFraming.Chunked)
        {
            output.Write("0\r\n\r\n"u8);
        }
    }
}
