using System.Runtime.CompilerServices;
using LLRP.Diagnostics;
using LLRP.Routing.Destinations;
using LLRP.Tasks;

namespace LLRP.Routing;

/// <summary>
/// The destination of one relayed connection (the TCP front end), by the rules <see cref="ClientRouting"/> follows for a
/// batch of requests:
/// 1. the cluster's <see cref="LoadBalancer"/> picks an available destination the connection has not failed on;
/// 2. a slot of its limit is taken (<see cref="Destination.EnterAsync"/>), held while the relay lasts;
/// 3. the connect; its failure counts against the destination's passive health (<see cref="ErrorPolicy.CountsAgainstHealth"/>)
///    and, as <see cref="ErrorPolicy.Retry"/> allows (nothing was sent), another destination is tried while the cluster's
///    retries remain.
/// </summary>
internal static class RelayRouting
{
    /// <param name="cluster">The route's cluster.</param>
    /// <param name="connect">Connects to a destination: the connection, or the failure (connect failed or timed out).</param>
    /// <param name="services">Failures, retries and ejections are counted and logged here.</param>
    /// <remarks>A connect always suspends it (a connect completes later): its box is pooled, one per connection otherwise.</remarks>
    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public static async ValueTask<RelayTarget<T>> ConnectAsync<T>(Cluster cluster, Func<Destination, ValueTask<(T? Connection, ForwarderError Error)>> connect, RoutingServices services)
        where T : class
    {
        var tried = 0UL;
        Destination? last = null;
        var error = ForwarderError.NoHealthyDestination;
        for (var attempt = 0; attempt <= cluster.MaxRetries; attempt++)
        {
            var destination = cluster.Balancer.Pick(null, tried, Environment.TickCount64);
            if (destination is null)
            {
                break;
            }

            if (last is not null)
            {
                services.Metrics.Retried(last.Tag);
            }

            last = destination;
            error = await destination.EnterAsync();
            if (error != ForwarderError.None)
            {
                return new RelayTarget<T>(destination, null, error);
            }

            (var connection, error) = await connect(destination);
            if (connection is not null)
            {
                destination.Health.ReportSuccess();
                return new RelayTarget<T>(destination, connection, ForwarderError.None);
            }

            destination.Exit();
            Failed(destination, error, services);
            tried |= 1UL << destination.Index;
            if (ErrorPolicy.Retry(error) != RetryScope.Unsent)
            {
                break;
            }
        }

        return new RelayTarget<T>(last, null, error);
    }

    private static void Failed(Destination destination, ForwarderError error, RoutingServices services)
    {
        if (!ErrorPolicy.CountsAgainstHealth(error))
        {
            return;
        }

        services.Metrics.DestinationFailed(error, destination.Tag);
        if (destination.Health.ReportFailure(Environment.TickCount64))
        {
            services.Metrics.DestinationEjected(destination.Tag);
            services.FailureLog.DestinationEjected(destination.Name, destination.Health.ReactivationMs, destination.Health.FailureThreshold);
        }
    }
}
