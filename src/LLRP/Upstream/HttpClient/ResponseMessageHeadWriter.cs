using System.Buffers;
using System.Net.Http.Headers;
using LLRP.Http1;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Writes the head of an <see cref="HttpResponseMessage"/> for the client: status line, the response's then the content's
/// fields minus hop-by-hop ones (and those the downstream's Connection field names) and minus Content-Length, then the
/// framing of <see cref="ResponseFraming"/>. A field HttpClient holds several values of is written as one line per value.
/// </summary>
internal static class ResponseMessageHeadWriter
{
    public static void Write<TWriter>(ref BufferWriter<TWriter> writer, HttpResponseMessage response, in ResponseFraming framing, long? contentLength)
        where TWriter : IBufferWriter<byte>
    {
        var status = (int)response.StatusCode;
        writer.Write("HTTP/1.1 "u8);
        writer.WriteDecimal(status);
        writer.Write(" "u8);
        writer.WriteLatin1(response.ReasonPhrase ?? string.Empty);
        writer.Write("\r\n"u8);

        var headers = response.Headers.NonValidated;
        HeaderStringValues? connection = headers.TryGetValues("Connection", out var options) && HopByHopNames.NamesFields(options) ? options : null;
        WriteFields(ref writer, headers, connection);
        WriteFields(ref writer, response.Content.Headers.NonValidated, connection);
        framing.WriteFields(ref writer, status, contentLength);
    }

    private static void WriteFields<TWriter>(ref BufferWriter<TWriter> writer, HttpHeadersNonValidated headers, HeaderStringValues? connection)
        where TWriter : IBufferWriter<byte>
    {
        foreach (var (name, values) in headers)
        {
            if (HopByHopNames.IsHopByHop(name) || HopByHopNames.IsContentLength(name)
                || (connection is { } named && HopByHopNames.IsNamedBy(named, name)))
            {
                continue;
            }

            foreach (var value in values)
            {
                writer.WriteLatin1(name);
                writer.Write(": "u8);
                writer.WriteLatin1(value);
                writer.Write("\r\n"u8);
            }
        }
    }
}
