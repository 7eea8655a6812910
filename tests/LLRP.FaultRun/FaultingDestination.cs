using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace LLRP.FaultRun;

/// <summary>
/// A destination on 127.0.0.1 that answers <c>/f/{id}</c> with the response body derived from the id
/// (<see cref="ExchangeBodies"/>), by Content-Length or chunked, keeping connections alive; it checks every request
/// body it receives complete against the one derived from the id. For a share of the requests it injects an
/// <see cref="DestinationFault"/> instead, and remembers the id, so that a client can tell a failure it caused from one it did not.
/// </summary>
internal sealed class FaultingDestination : IAsyncDisposable
{
    private static readonly DestinationFault[] Faults = Enum.GetValues<DestinationFault>();

    private readonly TcpListener _listener;
    private readonly double _faultRate;
    private readonly int _seed;
    private readonly FaultTally _tally;
    private readonly ConcurrentDictionary<string, byte> _faulted = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<Socket, byte> _open = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _accepting;
    private int _connections;

    public FaultingDestination(int port, double faultRate, int seed, FaultTally tally)
    {
        _faultRate = faultRate;
        _seed = seed;
        _tally = tally;
        _listener = new TcpListener(IPAddress.Loopback, port);
        _listener.Start(1024);
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _accepting = AcceptAsync();
    }

    public int Port { get; }

    public string Url => $"http://127.0.0.1:{Port}";

    /// <summary>Connections open now.</summary>
    public int OpenConnections => _open.Count;

    /// <summary>Whether a fault was injected into an exchange of request <paramref name="id"/> (a retried request has several).</summary>
    public bool Faulted(string id) => _faulted.ContainsKey(id);

    /// <summary>Closes every open connection, as a destination going away does.</summary>
    public void CloseAll()
    {
        foreach (var socket in _open.Keys)
        {
            socket.Dispose();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        _listener.Stop();
        CloseAll();
        try
        {
            await _accepting;
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The listener stopped.
        }

        _stopping.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            var socket = await _listener.AcceptSocketAsync(_stopping.Token);
            socket.NoDelay = true;
            _open[socket] = 0;
            _ = ServeAsync(socket, new Random(_seed ^ (Interlocked.Increment(ref _connections) * 7919)));
        }
    }

    private async Task ServeAsync(Socket socket, Random random)
    {
        try
        {
            await using var stream = new NetworkStream(socket, ownsSocket: false);
            var reader = new WireReader(stream);
            while (await reader.ReadHeadAsync(_stopping.Token) is var (startLine, fields))
            {
                var parts = startLine.Split(' ');
                var id = parts[1].StartsWith("/f/", StringComparison.Ordinal) ? parts[1][3..] : parts[1];
                var body = await reader.ReadBodyAsync(fields, untilClose: false, _stopping.Token);
                if (parts[0] == "POST" && ExchangeBodies.Hash(body) != ExchangeBodies.Hash(ExchangeBodies.Request(id, FaultRunner.MaxRequestBody)))
                {
                    _tally.Mismatch($"{id}: the destination got a complete request body of {body.Length} bytes that is not the client's");
                }

                if (!await AnswerAsync(socket, stream, id, random))
                {
                    return;
                }
            }
        }
        catch (Exception e) when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException or EndOfStreamException)
        {
            // The proxy closed or reset the connection, or the run is over.
        }
        finally
        {
            _open.TryRemove(socket, out _);
            socket.Dispose();
        }
    }

    /// <summary>Answers one request, or injects a fault; false when the connection is done.</summary>
    private async Task<bool> AnswerAsync(Socket socket, NetworkStream stream, string id, Random random)
    {
        var body = ExchangeBodies.Response(id, FaultRunner.MaxResponseBody);
        var chunked = random.Next(4) == 0;
        var head = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nX-Id: {id}\r\n"
            + (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : $"Content-Length: {body.Length}\r\n\r\n"));
        DestinationFault? fault = random.NextDouble() < _faultRate ? Faults[random.Next(Faults.Length)] : null;
        if (fault is null)
        {
            await stream.WriteAsync(Frame(head, body, chunked, body.Length), _stopping.Token);
            return true;
        }

        _faulted[id] = 0;
        _tally.Count($"destination.{fault}");
        if (fault != DestinationFault.ResetBeforeResponse)
        {
            await stream.WriteAsync(Frame(head, body, chunked, body.Length / 2), _stopping.Token);
        }

        if (fault == DestinationFault.CutMidBody)
        {
            socket.Shutdown(SocketShutdown.Send);
            return false;
        }

        socket.LingerState = new LingerOption(true, 0);
        socket.Close();
        return false;
    }

    /// <summary>The head and the first <paramref name="sent"/> bytes of the body; the whole message when they are all of it.</summary>
    private static byte[] Frame(byte[] head, byte[] body, bool chunked, int sent)
    {
        using var wire = new MemoryStream();
        wire.Write(head);
        if (chunked)
        {
            wire.Write(Encoding.ASCII.GetBytes($"{body.Length:x}\r\n"));
        }

        wire.Write(body, 0, sent);
        if (chunked && sent == body.Length)
        {
            wire.Write("\r\n0\r\n\r\n"u8);
        }

        return wire.ToArray();
    }
}
