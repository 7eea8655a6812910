using System.Buffers;
using System.Net.Http.Headers;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream.Context;

internal sealed partial class ContextConnection
{
    private const int ResponseBufferSize = 16 * 1024;

    /// <summary>
    /// Copies the upstream response into <c>HttpContext.Response</c>: status, reason, fields minus hop-by-hop ones (and those
    /// the downstream's <c>Connection</c> names), <c>Content-Length</c>, then the body, read by read through a pooled buffer
    /// into <c>HttpResponse.Body</c> (each write flushed, as Kestrel does). The response starts before the body is read.
    /// </summary>
    /// <returns>None; ResponseBodyFailed when the downstream failed mid-body; ClientAborted when the client went away.</returns>
    private static async ValueTask<ForwarderError> CopyResponseAsync(HttpResponseMessage upstream, HttpResponse response)
    {
        response.StatusCode = (int)upstream.StatusCode;
        response.HttpContext.Features.GetRequiredFeature<IHttpResponseFeature>().ReasonPhrase = upstream.ReasonPhrase;
        var fields = upstream.Headers.NonValidated;
        HeaderStringValues? connection = fields.TryGetValues("Connection", out var options) && HopByHopNames.NamesFields(options) ? options : null;
        CopyFields(fields, response.Headers, connection);
        CopyFields(upstream.Content.Headers.NonValidated, response.Headers, connection);
        response.ContentLength = upstream.Content.Headers.ContentLength;
        await response.StartAsync();

        var source = await upstream.Content.ReadAsStreamAsync();
        var buffer = ArrayPool<byte>.Shared.Rent(ResponseBufferSize);
        try
        {
            while (true)
            {
                int count;
                try
                {
                    count = await source.ReadAsync(buffer);
                }
                catch (Exception e) when (e is IOException or HttpRequestException or ObjectDisposedException)
                {
                    return ForwarderError.ResponseBodyFailed;
                }

                if (count == 0)
                {
                    return ForwarderError.None;
                }

                try
                {
                    await response.Body.WriteAsync(buffer.AsMemory(0, count));
                }
                catch (Exception e) when (IsConnectionFailure(e))
                {
                    return ForwarderError.ClientAborted;
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private static void CopyFields(HttpHeadersNonValidated fields, IHeaderDictionary headers, HeaderStringValues? connection)
    {
        foreach (var (name, values) in fields)
        {
            if (HopByHopNames.IsHopByHop(name) || HopByHopNames.IsContentLength(name)
                || (connection is { } named && HopByHopNames.IsNamedBy(named, name)))
            {
                continue;
            }

            foreach (var value in values)
            {
                headers.Append(name, value);
            }
        }
    }
}
