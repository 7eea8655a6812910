using System.Net;
using System.Net.Sockets;
using System.Text;

namespace LLRP.FaultRun;

/// <summary>
/// One client of a run: sends requests for <c>/f/{id}</c> one at a time over a keep-alive connection, GETs and POSTs
/// (bodies derived from the id, by Content-Length or chunked), checks that every 200 carries its own id and exactly the
/// body derived from it, and for a share of the requests injects a <see cref="ClientFault"/> instead. After a fault,
/// a failure or a close it opens a new connection.
/// </summary>
internal sealed class FaultingClient(FaultRunner run, int index)
{
    private const string Protocol = "HTTP/1.1";
    private static readonly ClientFault[] Faults = Enum.GetValues<ClientFault>();
    private static readonly byte[] Garbage = "\u0016\u0003\u0001\0\u00ffnot http at all\r\n\r\n"u8.ToArray();

    private readonly Random _random = new(run.Seed + (index * 104729));
    private Socket? _socket;
    private NetworkStream? _stream;
    private WireReader? _reader;

    public async Task RunAsync()
    {
        try
        {
            while (run.TryTakeRequest(out var id))
            {
                ClientFault? fault = _random.NextDouble() < run.FaultRate ? Faults[_random.Next(Faults.Length)] : null;
                var post = fault == ClientFault.AbortMidUpload || _random.Next(5) < 2;
                var chunked = fault != ClientFault.AbortMidUpload && _random.Next(4) == 0;
                using var timeout = new CancellationTokenSource(FaultRunner.ExchangeTimeout);
                try
                {
                    if (_socket is null)
                    {
                        await ConnectAsync(timeout.Token);
                    }

                    var keep = await ExchangeAsync(id, post, chunked, fault, timeout.Token);
                    if (!keep)
                    {
                        Disconnect(reset: false);
                    }
                }
                catch (OperationCanceledException) when (timeout.IsCancellationRequested)
                {
                    run.Tally.Count("client.stalled");
                    run.Tally.CollateralFailure($"{id}: no answer and no close within {FaultRunner.ExchangeTimeout.TotalSeconds} s ({fault?.ToString() ?? "no client fault"})");
                    Disconnect(reset: true);
                }
            }
        }
        finally
        {
            Disconnect(reset: false);
        }
    }

    private async Task ConnectAsync(CancellationToken token)
    {
        _socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await _socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, run.ProxyPort), token);
        _stream = new NetworkStream(_socket, ownsSocket: false);
        _reader = new WireReader(_stream);
    }

    /// <summary>One exchange, with or without a fault; false when the connection is done.</summary>
    private async Task<bool> ExchangeAsync(string id, bool post, bool chunked, ClientFault? fault, CancellationToken token)
    {
        var body = post ? ExchangeBodies.Request(id, FaultRunner.MaxRequestBody) : [];
        var wire = Request(id, post, chunked, body);
        var stream = _stream!;
        try
        {
            switch (fault)
            {
                case ClientFault.AbortMidUpload:
                    run.Tally.Count("client.AbortMidUpload");
                    await stream.WriteAsync(wire.AsMemory(0, wire.Length - Math.Max(2, body.Length / 2)), token);
                    Disconnect(reset: true);
                    return false;
                case ClientFault.AbortMidDownload:
                    run.Tally.Count("client.AbortMidDownload");
                    await stream.WriteAsync(wire, token);
                    await _reader!.ReadSomeAsync(token);
                    Disconnect(reset: true);
                    return false;
                case ClientFault.HalfCloseEarly:
                    run.Tally.Count("client.HalfCloseEarly");
                    await stream.WriteAsync(wire, token);
                    _socket!.Shutdown(SocketShutdown.Send);
                    await ReadResponseAsync(id, mayFail: true, token);
                    return false;
                case ClientFault.GarbageAfterRequest:
                    run.Tally.Count("client.GarbageAfterRequest");
                    await stream.WriteAsync(wire.Concat(Garbage).ToArray(), token);
                    if (await ReadResponseAsync(id, mayFail: true, token))
                    {
                        await _reader!.DrainAsync(token);
                    }

                    return false;
                case null:
                    await stream.WriteAsync(wire, token);
                    return await ReadResponseAsync(id, mayFail: false, token);
            }
        }
        catch (Exception e) when (e is IOException or SocketException or EndOfStreamException)
        {
            if (fault is null)
            {
                Failed(id, "aborted", e.Message);
            }

            return false;
        }

        return false;
    }

    /// <summary>Reads and checks the response to <paramref name="id"/>; false when the connection is done.</summary>
    private async Task<bool> ReadResponseAsync(string id, bool mayFail, CancellationToken token)
    {
        if (await _reader!.ReadHeadAsync(token) is not var (statusLine, fields))
        {
            if (!mayFail)
            {
                Failed(id, "closed", "the connection closed before a response");
            }

            return false;
        }

        var status = statusLine.Split(' ')[1];
        var close = fields.TryGetValue("connection", out var connection) && connection.Contains("close", StringComparison.OrdinalIgnoreCase);
        var body = await _reader.ReadBodyAsync(fields, untilClose: close, token);
        run.Tally.Count($"status.{status}");
        if (status != "200")
        {
            if (!mayFail)
            {
                Failed(id, $"status_{status}", Encoding.Latin1.GetString(body));
            }

            return false;
        }

        run.CheckAnswer(id, fields.GetValueOrDefault("x-id"), body, Protocol);
        return !close;
    }

    /// <summary>A request the client did not fault failed.</summary>
    private void Failed(string id, string outcome, string detail) => run.Failed(id, outcome, detail, Protocol);

    private static byte[] Request(string id, bool post, bool chunked, byte[] body)
    {
        if (!post)
        {
            return Encoding.ASCII.GetBytes($"GET /f/{id} HTTP/1.1\r\nHost: fault.test\r\n\r\n");
        }

        using var wire = new MemoryStream();
        if (chunked)
        {
            wire.Write(Encoding.ASCII.GetBytes($"POST /f/{id} HTTP/1.1\r\nHost: fault.test\r\nTransfer-Encoding: chunked\r\n\r\n"));
            if (body.Length > 0)
            {
                wire.Write(Encoding.ASCII.GetBytes($"{body.Length:x}\r\n"));
                wire.Write(body);
                wire.Write("\r\n"u8);
            }

            wire.Write("0\r\n\r\n"u8);
        }
        else
        {
            wire.Write(Encoding.ASCII.GetBytes($"POST /f/{id} HTTP/1.1\r\nHost: fault.test\r\nContent-Length: {body.Length}\r\n\r\n"));
            wire.Write(body);
        }

        return wire.ToArray();
    }

    private void Disconnect(bool reset)
    {
        if (_socket is null)
        {
            return;
        }

        if (reset)
        {
            _socket.LingerState = new LingerOption(true, 0);
        }

        _stream!.Dispose();
        _socket.Dispose();
        _socket = null;
        _stream = null;
        _reader = null;
    }
}
