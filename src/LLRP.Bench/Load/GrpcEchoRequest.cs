using System.Buffers.Binary;
using Google.Protobuf;
using LLRP.Downstream.Grpc;

namespace LLRP.Bench.Load;

/// <summary>The request of every gRPC unary call of the runner: a short text, which the bundled origin echoes back.</summary>
public static class GrpcEchoRequest
{
    /// <summary>The request message, as Grpc.Net.Client sends it (<see cref="GrpcUnaryLoad"/>, <see cref="GrpcUnaryCheck"/>).</summary>
    public static readonly EchoMessage Message = new() { Text = "hello, llrp" };

    /// <summary>
    /// <see cref="Message"/> as the body of a gRPC over HTTP/2 request, a single Length-Prefixed-Message: the Compressed-Flag
    /// byte 0, the message's length as a 4-byte big-endian unsigned integer, then its protobuf bytes, for a client that does
    /// not speak gRPC (h2load's <c>-d</c>).
    /// </summary>
    public static byte[] Framed()
    {
        var message = Message.ToByteArray();
        var framed = new byte[5 + message.Length];
        BinaryPrimitives.WriteUInt32BigEndian(framed.AsSpan(1), (uint)message.Length);
        message.CopyTo(framed, 5);
        return framed;
    }
}
