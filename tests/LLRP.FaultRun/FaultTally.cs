using System.Collections.Concurrent;

namespace LLRP.FaultRun;

/// <summary>What a run counted, from both ends. Thread-safe.</summary>
internal sealed class FaultTally
{
    private const int KeptProblems = 20;

    private readonly ConcurrentDictionary<string, long> _counts = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<string> _problems = new();
    private long _mismatches;
    private long _collateral;

    /// <summary>Responses delivered to the wrong request or with wrong bytes (at the client), and request bodies the destination got complete but wrong.</summary>
    public long Mismatches => Interlocked.Read(ref _mismatches);

    /// <summary>Requests that failed though no fault was injected into their exchange at either end.</summary>
    public long Collateral => Interlocked.Read(ref _collateral);

    public IEnumerable<string> Problems => _problems;

    public long this[string name] => _counts.GetValueOrDefault(name);

    public void Count(string name) => _counts.AddOrUpdate(name, 1, (_, count) => count + 1);

    public void Mismatch(string problem)
    {
        Interlocked.Increment(ref _mismatches);
        Keep(problem);
    }

    public void CollateralFailure(string problem)
    {
        Interlocked.Increment(ref _collateral);
        Keep(problem);
    }

    public string Describe() => string.Join(", ", _counts.OrderBy(pair => pair.Key, StringComparer.Ordinal).Select(pair => $"{pair.Key}={pair.Value}"));

    private void Keep(string problem)
    {
        if (_problems.Count < KeptProblems)
        {
            _problems.Enqueue(problem);
        }
    }
}
