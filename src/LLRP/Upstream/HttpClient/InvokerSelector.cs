namespace LLRP.Upstream.HttpClient;

/// <summary>Which invoker each request of one client connection is sent with. A mutable struct held in a field of the connection.</summary>
internal struct InvokerSelector
{
    private readonly HttpMessageInvoker? _owned;
    private readonly HttpMessageInvoker[] _shared;
    private readonly bool _roundRobin;
    private int _next;

    private InvokerSelector(HttpMessageInvoker? owned, HttpMessageInvoker[] shared, int first, bool roundRobin)
    {
        _owned = owned;
        _shared = shared;
        _next = first;
        _roundRobin = roundRobin;
    }

    public static InvokerSelector Owned(HttpMessageInvoker invoker) => new(invoker, [], 0, false);

    public static InvokerSelector Shared(HttpMessageInvoker[] invokers, int first, bool roundRobin) => new(null, invokers, first, roundRobin);

    /// <summary>The invoker for the next request: the connection's own, its fixed shared one, or the next shared one in turn.</summary>
    public HttpMessageInvoker Next()
    {
        if (_owned is not null)
        {
            return _owned;
        }

        var invoker = _shared[_next];
        if (_roundRobin && ++_next == _shared.Length)
        {
            _next = 0;
        }

        return invoker;
    }

    /// <summary>Disposes the connection's own invoker (and its connection pool); shared ones live as long as the proxy.</summary>
    public readonly void Dispose() => _owned?.Dispose();
}
