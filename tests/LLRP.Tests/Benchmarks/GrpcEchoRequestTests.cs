using System.Buffers.Binary;
using LLRP.Bench.Load;
using LLRP.Downstream.Grpc;

namespace LLRP.Tests.Benchmarks;

/// <summary>The gRPC unary request h2load POSTs: one Length-Prefixed-Message of gRPC over HTTP/2.</summary>
public sealed class GrpcEchoRequestTests
{
    [Fact]
    public void Framed_UncompressedFlagBigEndianLengthThenTheMessage()
    {
        var framed = GrpcEchoRequest.Framed();

        Assert.Equal(0, framed[0]);
        Assert.Equal((uint)(framed.Length - 5), BinaryPrimitives.ReadUInt32BigEndian(framed.AsSpan(1, 4)));
        Assert.Equal(GrpcEchoRequest.Message, EchoMessage.Parser.ParseFrom(framed.AsSpan(5)));
        Assert.Equal("hello, llrp", EchoMessage.Parser.ParseFrom(framed.AsSpan(5)).Text);
    }
}
