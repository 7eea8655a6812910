namespace LLRP.Downstream.Grpc;

/// <summary>
/// How many <see cref="EchoService.Unary"/> calls one origin answered with a message, that is with status OK: a load
/// generator that sees only <c>:status</c> (h2load) compares its 2xx count with this one to learn that its calls succeeded
/// at the gRPC level. Read at <see cref="RequestCountEndpoint.UnaryOkPath"/>.
/// </summary>
public sealed class UnaryCallCounter
{
    private long _answered;

    public long Answered => Interlocked.Read(ref _answered);

    public void Count() => Interlocked.Increment(ref _answered);
}
