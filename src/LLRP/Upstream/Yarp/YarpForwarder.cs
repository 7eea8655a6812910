using System.Buffers;
using System.Runtime.CompilerServices;
using LLRP.ClientSide;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Http1;
using LLRP.Tasks;
using LLRP.Upstream.HttpClient;
using LLRP.Upstream.LightContext;
using Microsoft.AspNetCore.Http.Features;
using Yarp.ReverseProxy.Forwarder;
using ForwarderError = LLRP.Diagnostics.ForwarderError;

namespace LLRP.Upstream.Yarp;

/// <summary>
/// yarp mode: each request fills the <see cref="LightHttpContext"/> (with the forwarding rules applied) and is sent by
/// YARP's <see cref="IHttpForwarder"/>, over the invokers of the HttpClient modes: YARP builds the message, streams the
/// request body from <c>HttpRequest.Body</c>, copies the response into <c>HttpContext.Response</c> through
/// <see cref="LlrpTransformer"/> and its body with its own copier; after a <c>101</c> to an upgrade request, YARP relays
/// the tunnel itself, with the client's end from <see cref="ClientUpgradeFeature"/>. YARP's errors are mapped to raw
/// mode's and answered by the session.
/// </summary>
internal sealed class YarpForwarder : IRequestForwarder
{
    /// <summary>The longest timeout YARP's activity timer takes, in whole milliseconds of an <see cref="int"/>.</summary>
    private static readonly TimeSpan MaxActivityTimeout = TimeSpan.FromMilliseconds(int.MaxValue);

    private InvokerSelector _invokers;
    private readonly IHttpForwarder _forwarder;
    private ForwarderRequestConfig _config;
    private ForwarderRequestConfig _upgradeConfig;
    private readonly TimeSpan _tunnelIdleTimeout;
    private readonly ClientUpgradeFeature _upgrade;
    private readonly LightHttpContext _light;
    private readonly LlrpTransformer _transformer;
    private readonly TargetUriCache _uris = new();
    private string _destinationPrefix = "";

    /// <param name="upgradeConfig">The configuration of an upgrade request, whose activity timeout is <see cref="UpgradeActivityTimeout"/>.</param>
    /// <param name="responseHeadersTimeout">The response headers timeout, which <paramref name="upgradeConfig"/> leaves to <see cref="ClientUpgradeFeature"/>.</param>
    /// <param name="tunnelIdleTimeout">The tunnel idle timeout, which the session's heartbeat keeps.</param>
    public YarpForwarder(
        ForwarderContext context,
        InvokerSelector invokers,
        IHttpForwarder forwarder,
        ForwarderRequestConfig config,
        ForwarderRequestConfig upgradeConfig,
        TimeSpan responseHeadersTimeout,
        TimeSpan tunnelIdleTimeout,
        int maxResponseHeadSize)
    {
        _invokers = invokers;
        _forwarder = forwarder;
        _config = config;
        _upgradeConfig = upgradeConfig;
        _tunnelIdleTimeout = tunnelIdleTimeout;
        _light = new LightHttpContext(context, maxResponseHeadSize);
        _upgrade = new ClientUpgradeFeature(context, _light.Response, responseHeadersTimeout);
        _light.Features.Set<IHttpUpgradeFeature>(_upgrade);
        _transformer = new LlrpTransformer(_light, _uris, context.Upgrades, _upgrade);
    }

    public ForwarderTraits Traits => ForwarderTraits.HttpClient;

    /// <summary>
    /// YARP's activity timeout for an upgrade request, which runs from its send to the end of the tunnel YARP relays
    /// after a <c>101</c>, reset by every read and write. It is never shorter than the response headers timeout, so that
    /// the wait for the response head is bounded by that timeout alone (<see cref="ClientUpgradeFeature.Ended"/>), as in
    /// every mode; and it outlasts the tunnel idle timeout by two heartbeats, so that YARP's timer is not the one that
    /// ends an idle tunnel: the session's heartbeat ends it (<see cref="TunnelActivity"/>, the one idle rule of every
    /// mode) within one heartbeat of the idle timeout, both sides through <see cref="ClientUpgradeFeature.Abort"/>. An
    /// answer other than <c>101</c> keeps it as the activity timeout of its body. Capped where YARP's timer, in whole
    /// milliseconds of an <see cref="int"/>, ends.
    /// </summary>
    public static TimeSpan UpgradeActivityTimeout(TimeSpan responseHeadersTimeout, TimeSpan tunnelIdleTimeout)
    {
        var outlastsIdleTimeout = tunnelIdleTimeout + 2 * OnDemandHeartbeat.DefaultInterval;
        var timeout = responseHeadersTimeout > outlastsIdleTimeout ? responseHeadersTimeout : outlastsIdleTimeout;
        return timeout < MaxActivityTimeout ? timeout : MaxActivityTimeout;
    }

    public ValueTask<ForwarderError> BeginBatchAsync(DestinationEndpoint destination, ClusterOptions cluster)
    {
        if (_config.ActivityTimeout != cluster.ResponseHeadersTimeout || _config.Version != cluster.HttpVersion || _config.VersionPolicy != cluster.VersionPolicy)
        {
            // YARP's activity timeout is the response headers timeout of the batch's cluster, and the version its
            // cluster's; an upgrade request keeps HTTP/1.1 (its configuration's), where its Upgrade has a meaning, and
            // its activity timeout follows the response headers timeout (UpgradeActivityTimeout), as both did when made.
            _config = _config with { ActivityTimeout = cluster.ResponseHeadersTimeout, Version = cluster.HttpVersion, VersionPolicy = cluster.VersionPolicy };
            _upgradeConfig = _upgradeConfig with { ActivityTimeout = UpgradeActivityTimeout(cluster.ResponseHeadersTimeout, _tunnelIdleTimeout) };
        }

        _upgrade.ResponseHeadersTimeout = cluster.ResponseHeadersTimeout;
        _uris.Retarget(destination);
        _destinationPrefix = destination.Origin;
        return ValueTask.FromResult(ForwarderError.None);
    }

    public void Add(RequestHead head, in ReadOnlySequence<byte> message, int headLength, long bodyLength, BodyKind body)
    {
        _light.Fill(head, body);
        _light.Features.Set<IForwarderErrorFeature>(null);
        _upgrade.Reset(head.RequestedUpgrades);
        _transformer.Reset();
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    public async ValueTask<ForwardResult> ForwardAsync(ClientRequestBody? body)
    {
        var config = _upgrade.IsUpgradableRequest ? _upgradeConfig : _config;
        var error = await _forwarder.SendAsync(_light.Context, _destinationPrefix, _invokers.Next(), config, _transformer, _upgrade.Ended);
        var response = _light.Response;
        if (_upgrade.HeadTimedOut)
        {
            return ForwardResult.Failed(0, ForwarderError.ResponseTimeout, started: false);
        }

        if (_upgrade.Switched)
        {
            // YARP relayed the tunnel to its end; however it ended, the client connection closes now.
            return new ForwardResult(1, ForwarderError.None, Started: true, CloseClient: true);
        }

        if (_transformer.InvalidResponse)
        {
            return ForwardResult.Failed(0, ForwarderError.InvalidResponse, response.HasStarted);
        }

        if (error != global::Yarp.ReverseProxy.Forwarder.ForwarderError.None
            && !(YarpErrors.IsAfterResponse(error) && _transformer.ResponseCopied))
        {
            var mapped = YarpErrors.Map(error, _light.Features.Get<IForwarderErrorFeature>()?.Exception);
            return ForwardResult.Failed(0, mapped, response.HasStarted);
        }

        await response.CompleteAsync();
        return new ForwardResult(1, ForwarderError.None, Started: true, response.Closes || body is { IsCompleted: false });
    }

    public ValueTask DisposeAsync()
    {
        _invokers.Dispose();
        _upgrade.Dispose();
        return default;
    }
}
