using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Fuzz;

/// <summary>
/// The application behind <see cref="Http2ConnectionTarget"/>'s server, chosen by the length of the request's path so a run repeats: a small
/// body; the request body read to its end, then its length; a reset (RST_STREAM CANCEL); a body larger than the initial
/// windows, with a trailer; a failure after the head started. <see cref="Busy"/> counts the handlers not waiting for the
/// client, so the target knows when the server has done all it can before the client sends more.
/// </summary>
internal sealed class FuzzApplication
{
    private static readonly byte[] Small = "ok"u8.ToArray();
    private static readonly byte[] Large = new byte[40_000];

    private int _busy;

    /// <summary>Handlers running and not waiting for the client (its body, or its windows).</summary>
    public int Busy => Volatile.Read(ref _busy);

    public async ValueTask HandleAsync(HttpContext context)
    {
        Interlocked.Increment(ref _busy);
        try
        {
            switch (context.Request.Path.Value?.Length % 5)
            {
                case 0 or null:
                    await WaitingForClient(context.Response.Body.WriteAsync(Small).AsTask());
                    await WaitingForClient(context.Response.CompleteAsync());
                    break;
                case 1:
                    var length = await WaitingForClient(ReadToEndAsync(context.Request.Body));
                    await WaitingForClient(context.Response.Body.WriteAsync(Encoding.ASCII.GetBytes(length.ToString())).AsTask());
                    await WaitingForClient(context.Response.CompleteAsync());
                    break;
                case 2:
                    context.Features.GetRequiredFeature<IHttpResetFeature>().Reset(8);
                    break;
                case 3:
                    context.Response.AppendTrailer("x-trailer", "1");
                    await WaitingForClient(context.Response.Body.WriteAsync(Large).AsTask());
                    await WaitingForClient(context.Response.Body.WriteAsync(Large).AsTask());
                    await WaitingForClient(context.Response.CompleteAsync());
                    break;
                default:
                    await context.Response.StartAsync();
                    throw new InvalidOperationException("The application fails after the head started.");
            }
        }
        finally
        {
            Interlocked.Decrement(ref _busy);
        }
    }

    private static async Task<long> ReadToEndAsync(Stream body)
    {
        var buffer = new byte[4096];
        long total = 0;
        int read;
        while ((read = await body.ReadAsync(buffer)) > 0)
        {
            total += read;
        }

        return total;
    }

    private async Task WaitingForClient(Task task)
    {
        Interlocked.Decrement(ref _busy);
        try
        {
            await task;
        }
        finally
        {
            Interlocked.Increment(ref _busy);
        }
    }

    private async Task<T> WaitingForClient<T>(Task<T> task)
    {
        Interlocked.Decrement(ref _busy);
        try
        {
            return await task;
        }
        finally
        {
            Interlocked.Increment(ref _busy);
        }
    }
}
