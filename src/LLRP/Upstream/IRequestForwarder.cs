using System.Buffers;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;

namespace LLRP.Upstream;

/// <summary>
/// Carries the requests of one client connection to the destination, in the configured mode; all that differs between
/// modes lives behind this. The client session calls, for each batch of requests parsed from one read:
/// 1. <see cref="BeginBatchAsync"/> once the first request parsed, with the batch's destination (the
///    <see cref="ForwarderContext.Rewriter"/> already points at it);
/// 2. <see cref="Add"/> for each request, in order, while its bytes are valid;
/// 3. <see cref="ForwardAsync"/>, which sends them and writes every response to the client through
///    <see cref="ClientResponseWriter"/>, in order. Failures are returned, never thrown.
/// A request whose body is still arriving (or that has a body, when <see cref="ForwarderTraits.TakesBufferedBodies"/> is
/// false) is forwarded alone, and its body is read from the <see cref="ClientRequestBody"/> given to <see cref="ForwardAsync"/>.
/// </summary>
internal interface IRequestForwarder : IAsyncDisposable
{
    /// <summary>What the forwarder can do; read once per forwarder.</summary>
    ForwarderTraits Traits { get; }

    /// <summary>Makes <paramref name="downstream"/> ready for a batch (an open connection, for one); an error is answered before anything is sent.</summary>
    /// <param name="destination">The batch's destination.</param>
    /// <param name="cluster">Its cluster: the time from a request sent to its response head, and the HTTP version asked of it.</param>
    ValueTask<ForwarderError> BeginBatchAsync(DestinationEndpoint destination, ClusterOptions cluster);

    /// <summary>Takes the next request of the batch.</summary>
    /// <param name="head">Its parsed head; reused for the next request once this returns.</param>
    /// <param name="message">
    /// Its bytes from the head's start: valid until <see cref="ForwardAsync"/> returns for a batch without a body to read;
    /// when its body is to be read, the client input is advanced past the head before <see cref="ForwardAsync"/>, so only
    /// until then.
    /// </param>
    /// <param name="headLength">Bytes of <paramref name="message"/> that are the head.</param>
    /// <param name="bodyLength">Bytes after the head that are its buffered body, as received (chunked framing included).</param>
    /// <param name="body">Where the body is: none, buffered, or to be read from the <see cref="ClientRequestBody"/>.</param>
    void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body);

    /// <summary>Sends the batch and forwards every response.</summary>
    /// <param name="body">The body of the batch's only request, still to be read from the client; null when no body is read so.</param>
    ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body);
}
