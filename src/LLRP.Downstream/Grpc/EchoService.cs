using Grpc.Core;

namespace LLRP.Downstream.Grpc;

/// <summary>
/// The bundled origin's gRPC service (<c>echo.proto</c>): one method of each call kind. A request whose
/// <c>fail_with</c> is set ends the call with that status; <see cref="Hold"/> counts the calls that its clients cancel, and
/// <paramref name="unaryCalls"/> the unary calls answered with status OK.
/// </summary>
public sealed class EchoService(UnaryCallCounter unaryCalls) : Echo.EchoBase
{
    private static long _cancelled;

    /// <summary>How many <see cref="Hold"/> calls were cancelled by their client (the cancellation reached this origin).</summary>
    public static long Cancelled => Interlocked.Read(ref _cancelled);

    public override Task<EchoMessage> Unary(EchoMessage request, ServerCallContext context)
    {
        FailIfAsked(request);
        unaryCalls.Count();
        return Task.FromResult(request);
    }

    public override async Task ServerStream(EchoMessage request, IServerStreamWriter<EchoMessage> responseStream, ServerCallContext context)
    {
        FailIfAsked(request);
        for (var i = 0; i < request.Count; i++)
        {
            await responseStream.WriteAsync(new EchoMessage { Text = $"{request.Text}{i}", Count = i });
        }
    }

    public override async Task<EchoMessage> ClientStream(IAsyncStreamReader<EchoMessage> requestStream, ServerCallContext context)
    {
        var texts = new List<string>();
        await foreach (var message in requestStream.ReadAllAsync(context.CancellationToken))
        {
            texts.Add(message.Text);
        }

        return new EchoMessage { Text = string.Join(',', texts), Count = texts.Count };
    }

    public override async Task Bidi(IAsyncStreamReader<EchoMessage> requestStream, IServerStreamWriter<EchoMessage> responseStream, ServerCallContext context)
    {
        await foreach (var message in requestStream.ReadAllAsync(context.CancellationToken))
        {
            await responseStream.WriteAsync(message);
        }
    }

    public override async Task Hold(EchoMessage request, IServerStreamWriter<EchoMessage> responseStream, ServerCallContext context)
    {
        await responseStream.WriteAsync(request);
        try
        {
            await Task.Delay(Timeout.Infinite, context.CancellationToken);
        }
        catch (OperationCanceledException)
        {
            Interlocked.Increment(ref _cancelled);
        }
    }

    private static void FailIfAsked(EchoMessage request)
    {
        if (request.FailWith != 0)
        {
            throw new RpcException(new Status((StatusCode)request.FailWith, request.Text));
        }
    }
}
