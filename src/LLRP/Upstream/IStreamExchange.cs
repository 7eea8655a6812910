using System.IO.Pipelines;
using System.Net;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Http1;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Upstream;

/// <summary>
/// One HTTP/2 request stream carried over a client of raw mode's own, in three steps: <see cref="SendAsync"/> sends
/// the head, streams the body as it arrives and reads the response head; <see cref="CopyBodyAsync"/> relays the body
/// and trailers; <see cref="EndAsync"/> gives the upstream connection back (or ends it), on every way out. Used by one
/// request stream at a time.
/// </summary>
internal interface IStreamExchange
{
    /// <summary>The response head <see cref="SendAsync"/> read.</summary>
    ResponseHead Response { get; }

    /// <param name="body">The request body; null for none.</param>
    /// <param name="bodyTrailers">The request's trailers, read once its body ended.</param>
    /// <param name="client">The stream's client address, which a PROXY protocol header carries; null for a destination sending none.</param>
    /// <param name="local">The address the stream's client connected to, the header's destination address.</param>
    /// <param name="timeout">Cancelled when the response headers timeout passes or the client resets its stream.</param>
    ValueTask<ForwarderError> SendAsync(
        DestinationEndpoint destination, RequestHead head, RequestRewriter rewriter, PipeReader? body, IHttpRequestTrailersFeature? bodyTrailers,
        EndPoint? client, EndPoint? local, CancellationToken timeout);

    /// <param name="trailers">Where the response's trailers go; null when the client takes none.</param>
    /// <param name="hasBody">The response has a body for this request (none for HEAD, 204, 304).</param>
    /// <param name="written">Counts the body bytes given to the client.</param>
    /// <returns>None; ResponseBodyFailed when the destination failed before its end; ClientAborted when the client reset its stream.</returns>
    ValueTask<ForwarderError> CopyBodyAsync(PipeWriter output, IHeaderDictionary? trailers, bool hasBody, Action<long> written, CancellationToken clientAborted);

    /// <param name="completed">The response was relayed whole.</param>
    ValueTask EndAsync(bool completed);
}
