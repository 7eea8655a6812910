using System.Buffers;
using LLRP.Http1;

namespace LLRP.Upstream.Sockets;

/// <summary>A request written upstream and not answered yet: its bytes (to write it again on a new connection) and what its response depends on.</summary>
/// <param name="Message">
/// The request as received, head and buffered body; valid until the batch is answered (read only to write the request
/// again, which happens in batches without a body to read, whose bytes stay valid; an upgrade request's are a copy, since
/// the client input is advanced past it before it is answered).
/// </param>
/// <param name="RequestedUpgrades">The protocols it asks to switch to (<see cref="RequestHead.RequestedUpgrades"/>): a <c>101</c> to one turns the connection into a tunnel.</param>
/// <param name="AcceptsTrailers">It said <c>TE: trailers</c> (RFC 9110 §10.1.4): a chunked response's trailer section is relayed.</param>
internal readonly record struct PendingRequest(
    ReadOnlySequence<byte> Message,
    int HeadLength,
    BodyKind Body,
    bool IsHead,
    bool IsHttp10,
    bool IsPersistent,
    bool IsIdempotent,
    ulong RequestedUpgrades,
    bool AcceptsTrailers);
