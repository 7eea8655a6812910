using System.Globalization;

namespace LLRP.FaultRun;

/// <summary>
/// Runs requests through a proxy to a <see cref="FaultingDestination"/> from concurrent <see cref="FaultingClient"/>s
/// (HTTP/1.1) or <see cref="FaultingHttp2Client"/>s until a number of requests is reached; every request gets a unique id.
/// </summary>
internal sealed class FaultRunner(int proxyPort, FaultingDestination destination, FaultTally tally, double faultRate, int seed)
{
    public const int MaxRequestBody = 8 * 1024;
    public const int MaxResponseBody = 16 * 1024;

    /// <summary>How long one exchange may go without ending: longer means the proxy neither answered nor closed.</summary>
    public static readonly TimeSpan ExchangeTimeout = TimeSpan.FromSeconds(30);

    private long _taken;
    private long _limit;

    public int ProxyPort => proxyPort;

    public FaultTally Tally => tally;

    public double FaultRate => faultRate;

    public int Seed => seed;

    /// <summary>Requests taken so far, over every call of <see cref="RunAsync"/>.</summary>
    public long Requests => Math.Min(Interlocked.Read(ref _taken), Interlocked.Read(ref _limit));

    /// <summary>Sends <paramref name="requests"/> more requests over <paramref name="connections"/> concurrent clients.</summary>
    public Task RunAsync(long requests, int connections)
    {
        Interlocked.Add(ref _limit, requests);
        return Task.WhenAll(Enumerable.Range(0, connections).Select(index => Task.Run(() => new FaultingClient(this, index).RunAsync())));
    }

    /// <summary>
    /// Sends <paramref name="requests"/> more requests over HTTP/2 (h2c): <paramref name="connections"/> concurrent
    /// clients, each a connection with <paramref name="streams"/> streams in flight.
    /// </summary>
    public Task RunHttp2Async(long requests, int connections, int streams)
    {
        Interlocked.Add(ref _limit, requests);
        return Task.WhenAll(Enumerable.Range(0, connections).Select(index => Task.Run(() => new FaultingHttp2Client(this, index, streams).RunAsync())));
    }

    /// <summary>
    /// Checks a 200 to request <paramref name="id"/>: its X-Id (<paramref name="answeredId"/>) and every byte of its body
    /// must be those derived from the id; anything else is a mismatch.
    /// </summary>
    public void CheckAnswer(string id, string? answeredId, byte[] body, string protocol)
    {
        var expected = ExchangeBodies.Response(id, MaxResponseBody);
        var sameBytes = ExchangeBodies.Hash(body) == ExchangeBodies.Hash(expected);
        if (answeredId != id || !sameBytes)
        {
            tally.Mismatch($"{id}: 200 over {protocol} with X-Id {answeredId} and {body.Length} bytes (expected {expected.Length}, same hash: {sameBytes})");
        }
    }

    /// <summary>
    /// A request that failed: expected when the destination faulted it, or the client (<paramref name="faultedByClient"/>);
    /// collateral otherwise.
    /// </summary>
    public void Failed(string id, string outcome, string detail, string protocol, bool faultedByClient = false)
    {
        tally.Count($"failed.{outcome}");
        if (!faultedByClient && !destination.Faulted(id))
        {
            tally.CollateralFailure($"{id}: {outcome} over {protocol} with no fault injected ({detail})");
        }
    }

    /// <summary>Takes the next request id, unless the requests asked for are all taken.</summary>
    public bool TryTakeRequest(out string id)
    {
        var taken = Interlocked.Increment(ref _taken);
        if (taken > Interlocked.Read(ref _limit))
        {
            Interlocked.Decrement(ref _taken);
            id = "";
            return false;
        }

        id = taken.ToString(CultureInfo.InvariantCulture);
        return true;
    }
}
