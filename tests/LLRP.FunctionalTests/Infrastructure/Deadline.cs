namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>Bounds every socket operation and host start, so that no test can hang.</summary>
public static class Deadline
{
    /// <summary>Longest wait for one connect, accept, read or write, and for a host to start.</summary>
    public static readonly TimeSpan Io = TimeSpan.FromSeconds(10);

    /// <summary>Longest wait for a host to stop; connections still open after it are aborted.</summary>
    public static readonly TimeSpan Stop = TimeSpan.FromSeconds(2);

    /// <summary>Runs <paramref name="operation"/>, turning its cancellation after <see cref="Io"/> into a <see cref="TimeoutException"/>.</summary>
    public static async Task<T> RunAsync<T>(Func<CancellationToken, ValueTask<T>> operation, string what)
    {
        using var timeout = new CancellationTokenSource(Io);
        try
        {
            return await operation(timeout.Token);
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            throw new TimeoutException($"{what} did not complete within {Io.TotalSeconds} s.");
        }
    }

    /// <inheritdoc cref="RunAsync{T}(Func{CancellationToken, ValueTask{T}}, string)"/>
    public static Task RunAsync(Func<CancellationToken, ValueTask> operation, string what) =>
        RunAsync(async token =>
        {
            await operation(token);
            return true;
        }, what);

    /// <summary>Polls <paramref name="condition"/> until it holds; a <see cref="TimeoutException"/> naming <paramref name="what"/> after <see cref="Io"/>.</summary>
    public static async Task UntilAsync(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow + Io;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"{what} did not happen within {Io.TotalSeconds} s.");
            }

            await Task.Delay(10);
        }
    }

    /// <summary>
    /// Tries <paramref name="attempt"/> again and again (each try bounded by the operations it runs) until it returns
    /// true; a <see cref="TimeoutException"/> naming <paramref name="what"/> after <see cref="Io"/>.
    /// </summary>
    public static async Task UntilAsync(Func<Task<bool>> attempt, string what)
    {
        var deadline = DateTime.UtcNow + Io;
        while (!await attempt())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"{what} did not happen within {Io.TotalSeconds} s.");
            }

            await Task.Delay(10);
        }
    }
}
