namespace LLRP.Http2.Server;

/// <summary>The response's OnStarting and OnCompleted callbacks (<see cref="Microsoft.AspNetCore.Http.Features.IHttpResponseFeature"/>), made only when one is registered.</summary>
internal struct ResponseCallbacks
{
    private List<(Func<object, Task> Callback, object State)>? _starting;
    private List<(Func<object, Task> Callback, object State)>? _completed;

    public void OnStarting(Func<object, Task> callback, object state) => (_starting ??= []).Add((callback, state));

    public void OnCompleted(Func<object, Task> callback, object state) => (_completed ??= []).Add((callback, state));

    /// <summary>An OnStarting callback was registered: the response head waits for them.</summary>
    public readonly bool HasStarting => _starting is not null;

    /// <summary>OnStarting callbacks run in reverse order of registration, as Kestrel runs them.</summary>
    public readonly async ValueTask RunStartingAsync()
    {
        if (_starting is { } starting)
        {
            for (var i = starting.Count - 1; i >= 0; i--)
            {
                await starting[i].Callback(starting[i].State);
            }
        }
    }

    public readonly async ValueTask RunCompletedAsync()
    {
        if (_completed is { } completed)
        {
            for (var i = completed.Count - 1; i >= 0; i--)
            {
                await completed[i].Callback(completed[i].State);
            }
        }
    }
}
