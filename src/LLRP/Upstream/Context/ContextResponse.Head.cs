using System.IO.Pipelines;
using LLRP.Http1;
using LLRP.Upstream.HttpClient;
using Microsoft.AspNetCore.WebUtilities;

namespace LLRP.Upstream.Context;

internal sealed partial class ContextResponse
{
    /// <summary>Decides the framing and writes the head; the fields the server owns (framing, persistence) are its own.</summary>
    private void WriteHead()
    {
        HasStarted = true;
        var contentLength = Headers.ContentLength;
        _framing = ResponseFraming.For(StatusCode, contentLength, _isHead, _isHttp10, Persistent);
        var writer = new BufferWriter<PipeWriter>(_output, 512);
        writer.Write("HTTP/1.1 "u8);
        writer.WriteDecimal(StatusCode);
        writer.Write(" "u8);
        writer.WriteLatin1(ReasonPhrase ?? ReasonPhrases.GetReasonPhrase(StatusCode));
        writer.Write("\r\n"u8);
        foreach (var (name, values) in Headers)
        {
            if (HopByHopNames.IsHopByHop(name) || HopByHopNames.IsContentLength(name))
            {
                continue;
            }

            foreach (var value in values)
            {
                writer.WriteLatin1(name);
                writer.Write(": "u8);
                writer.WriteLatin1(value ?? string.Empty);
                writer.Write("\r\n"u8);
            }
        }

        _framing.WriteFields(ref writer, StatusCode, contentLength);
        writer.Commit();
    }
}
