using LLRP.ClientSide;
using LLRP.Upstream.HttpClient;

namespace LLRP.Upstream.LightContext;

/// <summary>
/// A response body for the light context's <c>HttpContext.Response</c>: each read written to <c>HttpResponse.Body</c>,
/// which flushes each write as Kestrel's does; the trailers and the body's end are the response's completion.
/// </summary>
internal readonly struct LightResponseBodySink(LightResponse response) : IResponseBodySink
{
    public bool FlushDue => false;

    public async ValueTask<bool> FlushAsync()
    {
        try
        {
            await response.FlushAsync(CancellationToken.None);
            return true;
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            return false;
        }
    }

    public async ValueTask<bool> WriteAsync(ReadOnlyMemory<byte> bytes)
    {
        try
        {
            await response.Body.WriteAsync(bytes);
            return true;
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            return false;
        }
    }

    public void End()
    {
    }
}
