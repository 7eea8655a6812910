using System.Text;
using LLRP.Configuration;
using LLRP.Diagnostics;

namespace LLRP.Routing.Destinations;

/// <summary>
/// One destination and what the proxy knows of it: its weight, its health, and the requests in flight to it, bounded by
/// <c>limits.maxConnectionsPerDestination</c> with a FIFO queue of <c>limits.maxQueuedPerDestination</c> waiting
/// requests (<see cref="EnterAsync"/>, <see cref="Exit"/>). A reload keeps the object of a destination that stays,
/// so its state (and the upstream connections pooled for its endpoint) carry over.
/// </summary>
internal sealed class Destination
{
    private readonly int _maxActive;
    private readonly int _maxQueued;
    private readonly TimeSpan _queueTimeout;
    private readonly Queue<TaskCompletionSource<bool>> _waiters = new();
    private int _active;
    private int _queued;
    private volatile int _weight;

    /// <param name="configured">As configured.</param>
    /// <param name="clusterId">Its cluster: a named destination goes by <c>cluster/name</c>, an unnamed one (of <c>downstream</c>) by its base URI.</param>
    /// <param name="health">Its health.</param>
    /// <param name="maxActive">Its limit of requests in flight; 0 = none.</param>
    /// <param name="maxQueued">Requests that may wait for a slot.</param>
    /// <param name="queueTimeout">How long one may wait.</param>
    public Destination(DestinationOptions configured, string clusterId, DestinationHealth health, int maxActive, int maxQueued, TimeSpan queueTimeout)
    {
        Endpoint = configured.Endpoint;
        _weight = configured.Weight;
        Health = health;
        _maxActive = maxActive;
        _maxQueued = maxQueued;
        _queueTimeout = queueTimeout;
        Name = configured.Name is not null ? $"{clusterId}/{configured.Name}" : configured.Endpoint.ToString();
        Key = KeyOf(configured);
        Authority = configured.Host is { } host ? Encoding.ASCII.GetBytes(host) : configured.Endpoint.Authority;
        Tag = new KeyValuePair<string, object?>(ProxyMetrics.DestinationTag, Name);
    }

    public DestinationEndpoint Endpoint { get; }

    /// <summary><c>cluster/name</c>, or its base URI: as logs and the <c>destination</c> tag of metrics name it.</summary>
    public string Name { get; }

    /// <summary>What a reload matches it by: its name and its base URI.</summary>
    public string Key { get; }

    /// <summary>The key its cluster's session affinity knows it by (<see cref="Affinity.SessionAffinity.KeyOf"/>); empty without affinity.</summary>
    public byte[] AffinityKey { get; init; } = [];

    /// <summary>The response field line that binds a client to it; empty without affinity.</summary>
    public byte[] AffinityLine { get; init; } = [];

    /// <summary>The <c>Host</c> its requests carry: the configured <c>Host</c>, else its base URI's authority.</summary>
    public byte[] Authority { get; }

    /// <summary>The <c>destination</c> tag of its measurements, built once.</summary>
    public KeyValuePair<string, object?> Tag { get; }

    public DestinationHealth Health { get; }

    /// <summary>Its weight, which a reload may change.</summary>
    public int Weight
    {
        get => _weight;
        set => _weight = value;
    }

    /// <summary>Its place in the current set, for a request's mask of destinations already tried.</summary>
    public int Index { get; set; }

    /// <summary>Smooth weighted round robin's running weight; read and written under the balancer's lock only.</summary>
    public int CurrentWeight { get; set; }

    /// <summary>Requests (batches) in flight to it, including those that hold a slot of its limit.</summary>
    public int ActiveRequests => Volatile.Read(ref _active);

    /// <summary>Requests waiting for a slot.</summary>
    public int Queued => Volatile.Read(ref _queued);

    public bool IsAvailable(long now) => Health.IsAvailable(now);

    /// <summary>The <see cref="Key"/> of the destination <paramref name="configured"/> makes.</summary>
    public static string KeyOf(DestinationOptions configured) => $"{configured.Name}|{configured.Endpoint}|{configured.Host}";

    /// <summary>Takes a slot for one batch: at once when under the limit; else after waiting in the queue.</summary>
    /// <returns>None with a slot held (give it back with <see cref="Exit"/>); QueueFull or QueueTimeout without one.</returns>
    public ValueTask<ForwarderError> EnterAsync()
    {
        if (_maxActive == 0)
        {
            Interlocked.Increment(ref _active);
            return ValueTask.FromResult(ForwarderError.None);
        }

        TaskCompletionSource<bool> waiter;
        lock (_waiters)
        {
            if (_active < _maxActive)
            {
                _active++;
                return ValueTask.FromResult(ForwarderError.None);
            }

            if (_queued >= _maxQueued)
            {
                return ValueTask.FromResult(ForwarderError.QueueFull);
            }

            waiter = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiters.Enqueue(waiter);
            _queued++;
        }

        return WaitAsync(waiter);
    }

    /// <summary>Gives a slot back: to the first request still waiting, or to the pool of free slots.</summary>
    public void Exit()
    {
        if (_maxActive == 0)
        {
            Interlocked.Decrement(ref _active);
            return;
        }

        lock (_waiters)
        {
            while (_waiters.TryDequeue(out var waiter))
            {
                if (waiter.TrySetResult(true))
                {
                    // The slot passes to the waiter as it is: the count of active requests does not change.
                    _queued--;
                    return;
                }
            }

            _active--;
        }
    }

    private async ValueTask<ForwarderError> WaitAsync(TaskCompletionSource<bool> waiter)
    {
        try
        {
            await waiter.Task.WaitAsync(_queueTimeout);
            return ForwarderError.None;
        }
        catch (TimeoutException)
        {
            lock (_waiters)
            {
                if (!waiter.TrySetResult(false))
                {
                    // A slot was handed over as the timeout passed: it is this request's.
                    return ForwarderError.None;
                }

                // Left in the queue, abandoned: Exit skips it.
                _queued--;
                return ForwarderError.QueueTimeout;
            }
        }
    }
}
