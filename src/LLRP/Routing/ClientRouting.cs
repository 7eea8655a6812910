using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Configuration.Routes;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Routing.Destinations;
using LLRP.Tasks;
using LLRP.Upstream;

namespace LLRP.Routing;

/// <summary>
/// The routing of one client connection's batches, the same for every front end: the route of each request
/// (<see cref="Match"/>), then for each batch:
/// 1. <see cref="BeginAsync"/>: the cluster's <see cref="LoadBalancer"/> picks a destination the batch has not failed on
///    (the connection's own under the per-connection policy), a slot of its limit is taken, the forwarding rules are
///    pointed at it and the forwarder makes it ready; a failure that left the request unsent tries another destination;
/// 2. <see cref="Report"/> for each outcome: a transport failure counts against the destination's passive health, a
///    response for it;
/// 3. <see cref="RetryElsewhereAsync"/> when the outcome allows it (<see cref="ErrorPolicy.Retry"/>), while the cluster's
///    retries remain;
/// 4. <see cref="Release"/>: the slot given back, on every path.
/// </summary>
/// <param name="router">The current routes and clusters.</param>
/// <param name="forwarder">The connection's forwarder, made ready for each batch's destination unless <see cref="Forwarder"/> names another.</param>
/// <param name="rewriter">The connection's forwarding rules, pointed at each batch's route and destination.</param>
/// <param name="response">Where the batch's response is written, given its route's response transforms and affinity binding.</param>
/// <param name="services">What every connection's routing shares.</param>
/// <param name="defaultPort">The port a <c>Host</c> without one means on this connection: 80, or 443 over TLS.</param>
internal sealed class ClientRouting(Router router, IRequestForwarder forwarder, RequestRewriter rewriter, IRoutedResponse response, RoutingServices services, int defaultPort)
{
    /// <summary>The route of the batch being forwarded.</summary>
    private Route? _route;

    /// <summary>The destination of the batch being forwarded, and the connection's own under the per-connection policy.</summary>
    private Destination? _destination;

    /// <summary>The destination whose slot the batch holds, given back when the batch ends.</summary>
    private Destination? _entered;

    /// <summary>The destination the batch's session affinity names, available or not; null when it names none.</summary>
    private Destination? _affine;

    /// <summary>The destinations the batch failed on, one bit per <see cref="Destination.Index"/>.</summary>
    private ulong _tried;

    /// <summary>The batch's retries so far.</summary>
    private int _retries;

    /// <summary>The forwarder <see cref="BeginAsync"/> makes ready for the batch: the connection's, or the one the front end picked for the batch's route.</summary>
    public IRequestForwarder Forwarder { get; set; } = forwarder;

    /// <summary>The route of the batch, or of the last one; null before the first.</summary>
    public Route? Route => _route;

    /// <summary>The destination of the batch, or of the last one; null before the first.</summary>
    public Destination? Destination => _destination;

    /// <summary>
    /// Forgets the last batch's route and destination, for a routing that takes unrelated requests one after another (the
    /// HTTP/2 front end reuses one across streams): a request refused before <see cref="BeginAsync"/> then shows none.
    /// </summary>
    public void Forget() => (_route, _destination, _affine) = (null, null, null);

    /// <summary>
    /// Whether the request's path is fit for routing: without a dot-segment (RFC 3986 §5.2.4) wherever routes depend on
    /// the path, since the request is forwarded as received (RFC 9110 §7.7) and its origin would resolve it to another
    /// path than the one routed (<c>/public/../admin</c>).
    /// </summary>
    public bool IsRoutable(RequestHead head) => !router.Current.RoutesByPath || head.IsAsteriskForm || !DotSegments.In(head.Path);

    /// <summary>The route of <paramref name="head"/> in the current table, or null when none takes it; its path captures go to the forwarding rules.</summary>
    public Route? Match(RequestHead head) => router.Current.Match(head, defaultPort, rewriter);

    /// <summary>
    /// Picks the batch's destination in <paramref name="route"/>'s cluster (the one its session affinity names, while
    /// available), takes a slot and makes it ready, elsewhere when the first attempt left the request unsent.
    /// </summary>
    /// <param name="route">The batch's route.</param>
    /// <param name="idempotent">Every request of the batch is idempotent.</param>
    /// <param name="head">The batch's first request, where a session affinity key is looked for.</param>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwarderError> BeginAsync(Route route, bool idempotent, RequestHead head)
    {
        _route = route;
        _tried = 0;
        _retries = 0;
        response.Transforms = route.ResponseTransforms;
        response.AffinityLine = [];
        var affinity = route.Cluster.Affinity;
        _affine = affinity is null ? null : Affine(route.Cluster, affinity.FindKey(head));
        if (_affine is { } affine && !affine.IsAvailable(Environment.TickCount64)
            && affinity!.Options.FailurePolicy == AffinityFailurePolicy.Return503Error)
        {
            return ForwarderError.AffinityDestinationUnavailable;
        }

        var error = await TryDestinationAsync();
        return error == ForwarderError.None ? error : await RetryElsewhereAsync(error, idempotent);
    }

    /// <summary>
    /// Makes the batch ready on another destination after <paramref name="failed"/>, and again after each failure that
    /// allows it, while retries remain (<see cref="CanRetry"/>); when no other destination is available, the last
    /// failure stands.
    /// </summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwarderError> RetryElsewhereAsync(ForwarderError failed, bool idempotent)
    {
        var error = failed;
        while (error != ForwarderError.None && CanRetry(error, idempotent))
        {
            var destination = _destination!;
            _tried |= 1UL << destination.Index;
            _retries++;
            Release();
            services.Metrics.Retried(destination.Tag);
            var next = await TryDestinationAsync();
            if (next == ForwarderError.NoHealthyDestination)
            {
                return error;
            }

            error = next;
        }

        return error;
    }

    /// <summary>Nothing of the batch was answered, nor sent where that matters (<see cref="ErrorPolicy.Retry"/>), and it may go elsewhere.</summary>
    public bool IsUnanswered(in ForwardResult result, bool idempotent)
        => result.Completed == 0 && !result.Started && CanRetry(result.Error, idempotent);

    /// <summary>Feeds the destination's passive health with a batch's outcome: a transport failure counts against it (and may eject it), a response for it.</summary>
    public void Report(ForwarderError error, int completed)
    {
        var destination = _entered!;
        if (ErrorPolicy.CountsAgainstHealth(error))
        {
            services.Metrics.DestinationFailed(error, destination.Tag);
            var health = destination.Health;
            if (health.ReportFailure(Environment.TickCount64))
            {
                services.Metrics.DestinationEjected(destination.Tag);
                services.FailureLog.DestinationEjected(destination.Name, health.ReactivationMs, health.FailureThreshold);
            }
        }
        else if (completed > 0)
        {
            destination.Health.ReportSuccess();
        }
    }

    /// <summary>Gives back the slot the batch holds, if any.</summary>
    public void Release()
    {
        _entered?.Exit();
        _entered = null;
    }

    /// <summary>For <c>Retry-After</c> when no destination of the batch's cluster is available.</summary>
    public int RetryAfterSeconds() => _route?.Cluster.Destinations.RetryAfterSeconds(Environment.TickCount64) ?? 1;

    /// <summary>Picks a destination the batch has not failed on, takes a slot of its limit, and makes it ready.</summary>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private async ValueTask<ForwarderError> TryDestinationAsync()
    {
        var route = _route!;
        var now = Environment.TickCount64;
        var destination = _affine is { } affine && (_tried & (1UL << affine.Index)) == 0 && affine.IsAvailable(now)
            ? affine
            : route.Cluster.Balancer.Pick(_destination, _tried, now);
        if (destination is null)
        {
            return ForwarderError.NoHealthyDestination;
        }

        _destination = destination;
        if (await destination.EnterAsync() is var refused and not ForwarderError.None)
        {
            return refused;
        }

        _entered = destination;
        if (!ReferenceEquals(destination, _affine))
        {
            // A new binding (or none before): the response tells the client where its session now lives.
            response.AffinityLine = destination.AffinityLine;
        }

        rewriter.Retarget(destination.Authority, destination.Endpoint.PathPrefix, route.RequestTransforms);
        var error = await Forwarder.BeginBatchAsync(destination.Endpoint, route.Cluster.Options);
        if (error != ForwarderError.None)
        {
            Report(error, completed: 0);
            Release();
        }

        return error;
    }

    /// <summary>The current destination of <paramref name="cluster"/> whose affinity key is <paramref name="key"/>, or null.</summary>
    private static Destination? Affine(Cluster cluster, ReadOnlySpan<byte> key)
    {
        if (key.IsEmpty)
        {
            return null;
        }

        foreach (var destination in cluster.Destinations.Current)
        {
            if (key.SequenceEqual(destination.AffinityKey))
            {
                return destination;
            }
        }

        return null;
    }

    /// <summary>The failure allows another destination for this batch (<see cref="ErrorPolicy.Retry"/>), and retries remain.</summary>
    private bool CanRetry(ForwarderError error, bool idempotent)
        => _retries < _route!.Cluster.MaxRetries
           && _destination is not null
           && ErrorPolicy.Retry(error) switch
           {
               RetryScope.Never => false,
               RetryScope.Idempotent => idempotent,
               RetryScope.Unsent => idempotent || services.RetryUnsentAnyMethod,
           };
}
