using System.Diagnostics;
using System.Net.WebSockets;

namespace LLRP.Bench.Load;

/// <summary>
/// The WebSocket echo load: <see cref="LoadShape.Connections"/> <see cref="ClientWebSocket"/>s to <c>ws://127.0.0.1:port/ws</c>
/// (the bundled origin's echo, src/LLRP.Downstream), each sending one binary message of
/// <see cref="LoadShape.WebSocketMessageBytes"/> and reading its whole echo, checked byte for byte, before the next, until
/// the time is up. It runs inside the runner, so on the load CPU when bench.sh pins the runner there. A refused handshake
/// (a proxy that drops <c>Upgrade</c> reaches the origin's 426) ends that connection as an error; nothing waits longer
/// than <see cref="_grace"/> past the end.
/// </summary>
public static class WebSocketEchoLoad
{
    private static readonly TimeSpan _connectTimeout = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan _grace = TimeSpan.FromSeconds(10);

    public static async Task<WebSocketEchoResult> RunAsync(int port, LoadShape shape, int seconds, CancellationToken cancellationToken)
    {
        var uri = new Uri($"ws://127.0.0.1:{port}{shape.Path}");
        var payload = new byte[shape.WebSocketMessageBytes];
        new Random(1).NextBytes(payload);
        var end = TimeSpan.FromSeconds(seconds);
        using var abort = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        abort.CancelAfter(end + _grace);
        var clock = Stopwatch.StartNew();
        var tallies = await Task.WhenAll(Enumerable.Range(0, shape.Connections)
            .Select(_ => Task.Run(() => RunConnectionAsync(uri, payload, clock, end, abort.Token), CancellationToken.None)));
        var elapsed = clock.Elapsed.TotalSeconds;
        cancellationToken.ThrowIfCancellationRequested();

        var latencies = tallies.SelectMany(t => t.Latencies).Order().ToArray();
        double Percentile(double p) => latencies.Length == 0 ? double.NaN : Microseconds(latencies[(int)Math.Min(latencies.Length - 1, Math.Ceiling(p * latencies.Length) - 1)]);
        return new WebSocketEchoResult
        {
            Connections = shape.Connections,
            MessageBytes = payload.Length,
            Messages = latencies.Length,
            Seconds = elapsed,
            Errors = tallies.Count(t => t.Error is not null),
            FirstError = tallies.Select(t => t.Error).FirstOrDefault(e => e is not null),
            LatencyMeanMicroseconds = latencies.Length == 0 ? double.NaN : Microseconds((long)latencies.Average()),
            LatencyP50Microseconds = Percentile(0.50),
            LatencyP99Microseconds = Percentile(0.99),
            LatencyMaxMicroseconds = latencies.Length == 0 ? double.NaN : Microseconds(latencies[^1]),
        };
    }

    private static async Task<(List<long> Latencies, string? Error)> RunConnectionAsync(
        Uri uri, byte[] payload, Stopwatch clock, TimeSpan end, CancellationToken abort)
    {
        var latencies = new List<long>();
        var echo = new byte[payload.Length];
        using var socket = new ClientWebSocket();
        socket.Options.KeepAliveInterval = TimeSpan.Zero;
        try
        {
            using (var connect = CancellationTokenSource.CreateLinkedTokenSource(abort))
            {
                connect.CancelAfter(_connectTimeout);
                await socket.ConnectAsync(uri, connect.Token);
            }

            while (clock.Elapsed < end)
            {
                var started = clock.ElapsedTicks;
                await socket.SendAsync(payload, WebSocketMessageType.Binary, endOfMessage: true, abort);
                var received = await ReceiveMessageAsync(socket, echo, abort);
                if (received != payload.Length || !echo.AsSpan().SequenceEqual(payload))
                {
                    return (latencies, $"an echo of {received} bytes differs from the {payload.Length} bytes sent");
                }

                latencies.Add(clock.ElapsedTicks - started);
            }

            using var close = CancellationTokenSource.CreateLinkedTokenSource(abort);
            close.CancelAfter(TimeSpan.FromSeconds(2));
            await socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, close.Token);
            return (latencies, null);
        }
        catch (Exception e) when (e is WebSocketException or OperationCanceledException or IOException or InvalidDataException)
        {
            return (latencies, e is OperationCanceledException
                ? $"no answer within {(clock.Elapsed > end ? _grace : _connectTimeout).TotalSeconds:0} s"
                : e.Message);
        }
    }

    /// <summary>Reads one whole message into <paramref name="echo"/>; its length, or more than the buffer holds when it is longer.</summary>
    private static async Task<int> ReceiveMessageAsync(ClientWebSocket socket, byte[] echo, CancellationToken abort)
    {
        var received = 0;
        while (true)
        {
            if (received == echo.Length)
            {
                var extra = await socket.ReceiveAsync(new byte[1].AsMemory(), abort);
                return extra.Count == 0 && extra.EndOfMessage ? received : received + 1;
            }

            var result = await socket.ReceiveAsync(echo.AsMemory(received), abort);
            if (result.MessageType == WebSocketMessageType.Close)
            {
                throw new WebSocketException($"closed by the other side ({socket.CloseStatus} {socket.CloseStatusDescription})");
            }

            received += result.Count;
            if (result.EndOfMessage)
            {
                return received;
            }
        }
    }

    private static double Microseconds(long ticks) => ticks * 1e6 / Stopwatch.Frequency;
}
