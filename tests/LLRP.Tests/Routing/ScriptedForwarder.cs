using System.Buffers;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Upstream;

namespace LLRP.Tests.Routing;

/// <summary>A forwarder whose readiness per destination host is scripted; it records the hosts it was made ready for.</summary>
internal sealed class ScriptedForwarder(Func<string, ForwarderError> begin) : IRequestForwarder
{
    public List<string> Begun { get; } = [];

    public ForwarderTraits Traits => ForwarderTraits.Pipelining;

    public ValueTask<ForwarderError> BeginBatchAsync(DestinationEndpoint downstream, ClusterOptions cluster)
    {
        Begun.Add(downstream.Host[..1]);
        return ValueTask.FromResult(begin(downstream.Host[..1]));
    }

    public void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body)
        => throw new InvalidOperationException("Routing never adds requests.");

    public ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body)
        => throw new InvalidOperationException("Routing never forwards.");

    public ValueTask DisposeAsync() => default;
}
