using System.Diagnostics;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// An origin that plays one destination of a set, on a loopback port that stays its own: it answers every request with
/// its name (after <see cref="Delay"/>, and only once released while <see cref="Hold"/> is in force), answers a probe of
/// <see cref="HealthPath"/> with <see cref="HealthStatus"/>, records each request with when it arrived, and can go down
/// (<see cref="StopAsync"/>: the listener closed, so connects are refused, and every open connection reset, as a killed
/// process's) and come back on the same port (<see cref="Restart"/>).
/// </summary>
public sealed class DestinationOrigin : IAsyncDisposable
{
    /// <summary>The path the active health tests probe; requests for it are probes, not requests.</summary>
    public const string HealthPath = "/health";

    private readonly object _lock = new();
    private readonly List<(ReceivedRequest Request, long Timestamp)> _requests = [];
    private readonly List<int> _probeAnswers = [];

    /// <summary>The listener and connections of the current life; null while down.</summary>
    private ScriptedOrigin? _life;
    private TaskCompletionSource _released = NewReleased();
    private volatile int _healthStatus = 200;

    private DestinationOrigin(string name, TimeSpan delay)
    {
        Name = name;
        Delay = delay;
        _life = ScriptedOrigin.Start(ServeAsync);
        Port = _life.Port;
    }

    /// <summary>What it answers with: the body of every response to a request.</summary>
    public string Name { get; }

    /// <summary>How long it takes before answering a request (probes are answered at once).</summary>
    public TimeSpan Delay { get; }

    public int Port { get; }

    public string Url => $"http://127.0.0.1:{Port}";

    /// <summary>The name the proxy gives this destination in its metrics and its log: its base URI.</summary>
    public string DestinationName => Url + "/";

    /// <summary>The status a probe of <see cref="HealthPath"/> gets: 200 until a test says otherwise.</summary>
    public int HealthStatus
    {
        get => _healthStatus;
        set => _healthStatus = value;
    }

    /// <summary>Every request received so far that was not a probe, in order of arrival.</summary>
    public IReadOnlyList<ReceivedRequest> Requests
    {
        get
        {
            lock (_lock)
            {
                return _requests.Select(entry => entry.Request).ToArray();
            }
        }
    }

    /// <summary>How many requests (not probes) it received.</summary>
    public int Served
    {
        get
        {
            lock (_lock)
            {
                return _requests.Count;
            }
        }
    }

    /// <summary>Starts a destination named <paramref name="name"/> that answers after <paramref name="delay"/>.</summary>
    public static DestinationOrigin Start(string name, TimeSpan delay = default) => new(name, delay);

    /// <summary>How many probes it answered with <paramref name="status"/>.</summary>
    public int ProbesAnswered(int status)
    {
        lock (_lock)
        {
            return _probeAnswers.Count(answer => answer == status);
        }
    }

    /// <summary>When (a <see cref="Stopwatch"/> timestamp) the first request arriving at or after <paramref name="timestamp"/> arrived; null when none did.</summary>
    public long? FirstArrivalSince(long timestamp)
    {
        lock (_lock)
        {
            return _requests.Select(entry => entry.Timestamp).Where(arrival => arrival >= timestamp).Order().Cast<long?>().FirstOrDefault();
        }
    }

    /// <summary>Requests received from now on wait for <see cref="Release"/> before they are answered.</summary>
    public void Hold()
    {
        lock (_lock)
        {
            if (_released.Task.IsCompleted)
            {
                _released = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            }
        }
    }

    /// <summary>Answers every request held, and those that come next at once.</summary>
    public void Release()
    {
        lock (_lock)
        {
            _released.TrySetResult();
        }
    }

    /// <summary>Goes down: stops listening (a connect is refused), resets every open connection and ends any <see cref="Hold"/>.</summary>
    public async Task StopAsync()
    {
        ScriptedOrigin? life;
        lock (_lock)
        {
            life = _life;
            _life = null;
        }

        if (life is null)
        {
            return;
        }

        // Its listener stopped and each connection's handler disposed its connection: nothing of that life is left.
        await life.ResetAsync();
        Release();
        await life.ConnectionsEndedAsync();
    }

    /// <summary>Comes back up, listening on the same port again.</summary>
    public void Restart()
    {
        lock (_lock)
        {
            if (_life is not null)
            {
                throw new InvalidOperationException($"Origin {Name} is already up.");
            }

            _life = ScriptedOrigin.Start(ServeAsync, Port);
        }
    }

    public ValueTask DisposeAsync() => new(StopAsync());

    private static TaskCompletionSource NewReleased()
    {
        var released = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        released.SetResult();
        return released;
    }

    private async Task ServeAsync(OriginConnection connection)
    {
        while (await connection.ReadRequestAsync() is { } request)
        {
            await AnswerAsync(connection, request);
        }
    }

    private async Task AnswerAsync(OriginConnection connection, ReceivedRequest request)
    {
        if (request.Target == HealthPath)
        {
            var status = HealthStatus;
            lock (_lock)
            {
                _probeAnswers.Add(status);
            }

            await connection.SendAsync($"HTTP/1.1 {status} Probed\r\nContent-Length: 0\r\n\r\n");
            return;
        }

        Task released;
        lock (_lock)
        {
            _requests.Add((request, Stopwatch.GetTimestamp()));
            released = _released.Task;
        }

        await released;
        if (Delay > TimeSpan.Zero)
        {
            // The origin's own slowness, which the policies under test must see; not a wait for anything.
            await Task.Delay(Delay);
        }

        await connection.SendAsync($"HTTP/1.1 200 OK\r\nContent-Length: {Name.Length}\r\n\r\n{Name}");
    }
}
