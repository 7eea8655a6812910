namespace LLRP.Upstream;

/// <summary>
/// A timeout started and stopped around each wait of one connection (the response headers timeout): its
/// <see cref="CancellationTokenSource"/> is reused while it never fired, and replaced once it has.
/// </summary>
internal sealed class RestartableTimeout(TimeSpan duration) : IDisposable
{
    private CancellationTokenSource? _source;

    /// <summary>How long each wait may last; a change applies from the next <see cref="Start"/>.</summary>
    public TimeSpan Duration { get; set; } = duration;

    /// <summary>Starts the timeout; the token is cancelled when it passes before <see cref="Stop"/>.</summary>
    public CancellationToken Start()
    {
        var source = _source ??= new CancellationTokenSource();
        source.CancelAfter(Duration);
        return source.Token;
    }

    /// <summary>Stops the timeout started last.</summary>
    public void Stop()
    {
        if (_source is { } source && !source.TryReset())
        {
            source.Dispose();
            _source = null;
        }
    }

    public void Dispose() => _source?.Dispose();
}
