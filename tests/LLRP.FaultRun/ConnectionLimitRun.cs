using System.Net;
using System.Net.Sockets;
using System.Text;

namespace LLRP.FaultRun;

/// <summary>
/// Fills a proxy up to its <c>limits.maxClientConnections</c> and past it: the connections within the limit each get one
/// request answered and stay open; each one over it must get <c>503</c> and a close without sending anything.
/// </summary>
internal sealed class ConnectionLimitRun(int proxyPort)
{
    private const int Concurrency = 64;

    private readonly List<(Socket Socket, NetworkStream Stream, WireReader Reader)> _held = [];

    /// <summary>Connections within the limit whose request was answered 200.</summary>
    public int Served { get; private set; }

    /// <summary>Connections over the limit that got 503 and then the close.</summary>
    public int Refused { get; private set; }

    /// <summary>Connections that got neither what they should have nor a close: each described.</summary>
    public List<string> Problems { get; } = [];

    /// <summary>Opens <paramref name="limit"/> connections, one request each, kept open; then <paramref name="over"/> more that must be refused.</summary>
    public async Task RunAsync(int limit, int over, CancellationToken token)
    {
        for (var first = 0; first < limit; first += Concurrency)
        {
            var batch = await Task.WhenAll(Enumerable.Range(first, Math.Min(Concurrency, limit - first)).Select(index => ServeOneAsync(index, token)));
            Served += batch.Count(served => served);
        }

        for (var first = 0; first < over; first += Concurrency)
        {
            var batch = await Task.WhenAll(Enumerable.Range(first, Math.Min(Concurrency, over - first)).Select(index => RefuseOneAsync(index, token)));
            Refused += batch.Count(refused => refused);
        }
    }

    /// <summary>Closes every connection held open.</summary>
    public void CloseAll()
    {
        foreach (var (socket, stream, _) in _held)
        {
            stream.Dispose();
            socket.Dispose();
        }

        _held.Clear();
    }

    private async Task<bool> ServeOneAsync(int index, CancellationToken token)
    {
        var (socket, stream, reader) = await ConnectAsync(token);
        lock (_held)
        {
            _held.Add((socket, stream, reader));
        }

        var id = $"held-{index}";
        await stream.WriteAsync(Encoding.ASCII.GetBytes($"GET /f/{id} HTTP/1.1\r\nHost: limit.test\r\n\r\n"), token);
        if (await reader.ReadHeadAsync(token) is not var (statusLine, fields))
        {
            Problem($"connection {index} within the limit closed before a response");
            return false;
        }

        var body = await reader.ReadBodyAsync(fields, untilClose: false, token);
        if (!statusLine.StartsWith("HTTP/1.1 200 ", StringComparison.Ordinal) || ExchangeBodies.Hash(body) != ExchangeBodies.Hash(ExchangeBodies.Response(id, FaultRunner.MaxResponseBody)))
        {
            Problem($"connection {index} within the limit got {statusLine} with {body.Length} bytes");
            return false;
        }

        return true;
    }

    private async Task<bool> RefuseOneAsync(int index, CancellationToken token)
    {
        var (socket, stream, reader) = await ConnectAsync(token);
        using (socket)
        await using (stream)
        {
            try
            {
                if (await reader.ReadHeadAsync(token) is not var (statusLine, fields))
                {
                    Problem($"connection {index} over the limit closed without a response");
                    return false;
                }

                await reader.ReadBodyAsync(fields, untilClose: false, token);
                if (!statusLine.StartsWith("HTTP/1.1 503 ", StringComparison.Ordinal) || await reader.DrainAsync(token) != 0)
                {
                    Problem($"connection {index} over the limit got {statusLine}, or more after it");
                    return false;
                }

                return true;
            }
            catch (Exception e) when (e is IOException or SocketException)
            {
                Problem($"connection {index} over the limit: {e.Message}");
                return false;
            }
        }
    }

    private async Task<(Socket Socket, NetworkStream Stream, WireReader Reader)> ConnectAsync(CancellationToken token)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, proxyPort), token);
        var stream = new NetworkStream(socket, ownsSocket: false);
        return (socket, stream, new WireReader(stream));
    }

    private void Problem(string problem)
    {
        lock (Problems)
        {
            if (Problems.Count < 20)
            {
                Problems.Add(problem);
            }
        }
    }
}
