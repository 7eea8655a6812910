namespace LLRP.Tasks;

/// <summary>
/// What the boxes of <see cref="PooledValueTaskBuilder{TResult}"/> keep between uses, across methods and threads: whether
/// they are kept at all (key <c>tasks.pooling</c>), and every thread's cache, so that each gen2 collection empties them
/// (<see cref="Gen2CollectionWatcher"/>) as the runtime's <c>ArrayPool</c> trims its own.
/// </summary>
internal static class BoxPool
{
    /// <summary>
    /// Most idle boxes of one method kept per thread. Measured (raw mode, pooled upstream connections, proxy on one core,
    /// GET 10 B): a thread keeps up to one box per request it has in flight, since every request of a connection that is
    /// not at the proxy at that moment left its boxes behind; the peak of idle boxes per method on the socket thread was
    /// 128 under <c>wrk -c128</c> and 512 (the cap of that build, reached) under <c>wrk -c1024</c>, with 992 in flight. 128 keeps
    /// the c128 shape free of box allocations (25 B per request in all, 29 with 512, 1.5 KB with none kept) and costs at
    /// most 128 × ~250 B per method and thread (~0.25 MB for the 8 methods of a raw-mode request, ~0.9 MB if all 28 run on
    /// one thread); a thread with more requests in flight allocates for the rest (c1024 on one core: 0.8 KB per request,
    /// 0.3 KB with 512). With <c>transport.inlineCompletions</c> .NET runs one socket thread per core, so a bigger host
    /// spreads its connections and each thread has fewer in flight. docs/benchmarks.md's <i>Pooled async method boxes</i> has the
    /// same-run figures.
    /// </summary>
    public const int MaxPerThread = 128;

    /// <summary>
    /// Most idle boxes of one method that threads pass to each other (<see cref="BoxExchange{TBox}"/>). Measured (own
    /// HTTP/2 server, h2c to an HTTP/1.1 destination in raw mode, proxy on one core, <c>h2load -c32 -m10</c>: 320 streams in
    /// flight, each starting on the thread pool and given back on the socket thread, whose own cache is full): with 128 the
    /// exchange ran dry and overflowed in turn and ~250 B per request were still boxes; with 512, more than the streams in
    /// flight, none (docs/benchmarks.md, <i>Pooled async method boxes</i>). At most 512 × ~250 B per method that passes
    /// between threads, kept until the next gen2 collection.
    /// </summary>
    public const int MaxShared = 512;

    private static readonly List<WeakReference<Array>> _caches = [];

    /// <summary>
    /// Whether a box given back is kept; set at start-up, before the first request. Off, every suspension allocates a box,
    /// as the runtime's default builder does. Read on every give-back, so changing it later is safe: boxes already kept
    /// are used up, none is kept anew.
    /// </summary>
    public static bool Enabled { get; set; } = true;

    /// <summary>Adds a thread's cache of one method's boxes (made once per thread and method), or a method's exchange, to those <see cref="Trim"/> empties.</summary>
    public static void Register(Array cache)
    {
        lock (_caches)
        {
            if (_caches.Count == 0)
            {
                Gen2CollectionWatcher.Start();
            }

            _caches.Add(new WeakReference<Array>(cache));
        }
    }

    /// <summary>
    /// Drops every kept box, from any thread. An owner thread that finds an emptied slot takes its cache as empty
    /// (<see cref="PooledStateMachineBox{TResult, TStateMachine}.Rent"/>); a box given back while its cache is emptied is
    /// lost to the collector, never handed out twice. The caches of threads that ended are forgotten.
    /// </summary>
    public static void Trim()
    {
        lock (_caches)
        {
            _caches.RemoveAll(static reference => !reference.TryGetTarget(out _));
            foreach (var reference in _caches)
            {
                if (reference.TryGetTarget(out var cache))
                {
                    Array.Clear(cache);
                }
            }
        }
    }
}
