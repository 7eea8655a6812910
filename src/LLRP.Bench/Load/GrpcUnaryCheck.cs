using System.Net;
using Grpc.Core;
using Grpc.Net.Client;
using LLRP.Downstream.Grpc;

namespace LLRP.Bench.Load;

/// <summary>
/// One gRPC unary call of the bundled origin's <c>Echo.Unary</c> through a contender (Grpc.Net.Client over h2c), before a
/// load that sees only <c>:status</c> is measured: the call must end with <c>grpc-status</c> 0 and echo the request's text.
/// </summary>
public static class GrpcUnaryCheck
{
    private static readonly TimeSpan _timeout = TimeSpan.FromSeconds(10);

    /// <summary>Null when the call succeeded; otherwise what went wrong.</summary>
    public static async Task<string?> RunAsync(int port, CancellationToken cancellationToken)
    {
        using var channel = GrpcChannel.ForAddress($"http://127.0.0.1:{port}", new GrpcChannelOptions
        {
            HttpHandler = new SocketsHttpHandler { UseProxy = false, AutomaticDecompression = DecompressionMethods.None, ConnectTimeout = _timeout },
            DisposeHttpClient = true,
        });
        var client = new Echo.EchoClient(channel);
        try
        {
            using var call = client.UnaryAsync(GrpcEchoRequest.Message, deadline: DateTime.UtcNow + _timeout, cancellationToken: cancellationToken);
            var reply = await call.ResponseAsync;
            var status = call.GetStatus();
            return status.StatusCode != StatusCode.OK ? $"the check call ended with {status}"
                : reply.Text != GrpcEchoRequest.Message.Text ? $"the check call echoed '{reply.Text}' for '{GrpcEchoRequest.Message.Text}'"
                : null;
        }
        catch (RpcException e)
        {
            return $"the check call ended with {e.Status}";
        }
    }
}
