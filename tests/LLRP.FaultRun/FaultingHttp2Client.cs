using System.Collections.Concurrent;
using System.Net;

namespace LLRP.FaultRun;

/// <summary>
/// One HTTP/2 client of a run: a connection (<see cref="Http2FaultConnection"/>) with several streams in flight at once,
/// each sending requests for <c>/f/{id}</c> one after another, GETs and POSTs (bodies derived from the id, with a
/// Content-Length or without one, so the proxy frames them itself toward an HTTP/1.1 destination). It checks that every
/// 200 carries its own id and exactly the body derived from it, and for a share of the requests injects a
/// <see cref="StreamFault"/> instead. A connection it aborted is replaced by a new one.
/// </summary>
internal sealed class FaultingHttp2Client(FaultRunner run, int index, int streams)
{
    private const string Protocol = "HTTP/2";
    private static readonly StreamFault[] Faults = Enum.GetValues<StreamFault>();

    /// <summary>Ids of the requests that were on a connection this client aborted.</summary>
    private readonly ConcurrentDictionary<string, byte> _clientFaulted = new(StringComparer.Ordinal);
    private readonly Lock _gate = new();
    private Http2FaultConnection? _connection;

    public async Task RunAsync()
    {
        try
        {
            await Task.WhenAll(Enumerable.Range(0, streams).Select(stream => Task.Run(() => RunStreamAsync(new Random(run.Seed + (index * 104729) + (stream * 7919))))));
        }
        finally
        {
            lock (_gate)
            {
                _connection?.Dispose();
                _connection = null;
            }
        }
    }

    private async Task RunStreamAsync(Random random)
    {
        while (run.TryTakeRequest(out var id))
        {
            StreamFault? fault = random.NextDouble() < run.FaultRate ? Faults[random.Next(Faults.Length)] : null;
            var post = fault == StreamFault.CancelMidUpload || random.Next(5) < 2;
            var sized = fault == StreamFault.CancelMidUpload || random.Next(4) != 0;
            var connection = Begin(id);
            using var timeout = new CancellationTokenSource(FaultRunner.ExchangeTimeout);
            try
            {
                await ExchangeAsync(connection, id, post, sized, fault, timeout.Token);
            }
            catch (OperationCanceledException) when (timeout.IsCancellationRequested)
            {
                run.Tally.Count("client.stalled");
                run.Tally.CollateralFailure($"{id}: no answer and no reset within {FaultRunner.ExchangeTimeout.TotalSeconds} s over HTTP/2 ({fault?.ToString() ?? "no client fault"})");
                Abort(connection);
            }
            finally
            {
                connection.End(id);
            }
        }
    }

    /// <summary>The connection the request <paramref name="id"/> goes on, made when there is none or the last was aborted.</summary>
    private Http2FaultConnection Begin(string id)
    {
        while (true)
        {
            Http2FaultConnection connection;
            lock (_gate)
            {
                connection = _connection ??= new Http2FaultConnection(run.ProxyPort, _clientFaulted);
            }

            if (connection.TryBegin(id))
            {
                return connection;
            }

            lock (_gate)
            {
                if (_connection == connection)
                {
                    _connection = null;
                }
            }
        }
    }

    private void Abort(Http2FaultConnection connection)
    {
        lock (_gate)
        {
            if (_connection == connection)
            {
                _connection = null;
            }
        }

        connection.Abort();
    }

    /// <summary>One exchange on a stream of <paramref name="connection"/>, with or without a fault.</summary>
    private async Task ExchangeAsync(Http2FaultConnection connection, string id, bool post, bool sized, StreamFault? fault, CancellationToken timeout)
    {
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(timeout);
        using var request = new HttpRequestMessage(post ? HttpMethod.Post : HttpMethod.Get, $"/f/{id}")
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        if (post)
        {
            var body = ExchangeBodies.Request(id, FaultRunner.MaxRequestBody);
            request.Content = fault == StreamFault.CancelMidUpload ? new HalfThenResetContent(body, cancel) : new TwoWritesContent(body, sized);
        }

        if (fault is { } injected)
        {
            run.Tally.Count($"client.{injected}");
        }

        try
        {
            using var response = await connection.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancel.Token);
            switch (fault)
            {
                case StreamFault.CancelMidDownload:
                    // Disposing the response with its body unread resets the stream.
                    await using (var stream = await response.Content.ReadAsStreamAsync(cancel.Token))
                    {
                        await stream.ReadAtLeastAsync(new byte[ExchangeBodies.MinResponseLength / 2], 1, throwOnEndOfStream: false, cancel.Token);
                    }

                    return;
                case StreamFault.AbortConnection:
                    Abort(connection);
                    return;
            }

            var received = await response.Content.ReadAsByteArrayAsync(cancel.Token);
            Check(id, response, received);
        }
        catch (OperationCanceledException) when (fault == StreamFault.CancelMidUpload && cancel.IsCancellationRequested && !timeout.IsCancellationRequested)
        {
            // The client reset its stream mid-upload, as it meant to.
        }
        catch (OperationCanceledException e) when (!timeout.IsCancellationRequested)
        {
            // The connection was aborted under the stream (its HttpClient disposed).
            Failed(id, "cancelled", e.Message);
        }
        catch (Exception e) when (e is HttpRequestException or IOException or ObjectDisposedException)
        {
            if (fault is null)
            {
                Failed(id, "aborted", e.Message);
            }
        }
    }

    private void Check(string id, HttpResponseMessage response, byte[] received)
    {
        var status = ((int)response.StatusCode).ToString(System.Globalization.CultureInfo.InvariantCulture);
        run.Tally.Count($"status.{status}");
        if (response.StatusCode != HttpStatusCode.OK)
        {
            Failed(id, $"status_{status}", System.Text.Encoding.Latin1.GetString(received));
            return;
        }

        var ids = response.Headers.TryGetValues("x-id", out var values) ? string.Join(",", values) : null;
        run.CheckAnswer(id, ids, received, Protocol);
    }

    private void Failed(string id, string outcome, string detail) => run.Failed(id, outcome, detail, Protocol, _clientFaulted.ContainsKey(id));
}
