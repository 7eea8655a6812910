using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// A raw TCP origin on 127.0.0.1 (a port of its own, or one given) that records every byte the proxy sends and answers
/// with the bytes a test scripts, one handler run per accepted connection; the connection is closed when the handler
/// returns. It can go down as a killed process does (<see cref="ResetAsync"/>).
/// </summary>
public sealed class ScriptedOrigin : IAsyncDisposable
{
    /// <summary>A minimal valid response.</summary>
    public const string Ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private readonly Func<OriginConnection, Task> _handler;
    private readonly List<OriginConnection> _connections = [];
    private readonly List<Task> _handlers = [];
    private readonly LoopbackAcceptor _acceptor;

    private ScriptedOrigin(Func<OriginConnection, Task> handler, int port)
    {
        _handler = handler;
        _acceptor = new LoopbackAcceptor(Accept, port);
    }

    public int Port => _acceptor.Port;

    public string Url => $"http://127.0.0.1:{Port}";

    public string Authority => $"127.0.0.1:{Port}";

    /// <summary>The connections accepted so far, in order.</summary>
    public IReadOnlyList<OriginConnection> Connections
    {
        get
        {
            lock (_connections)
            {
                return _connections.ToArray();
            }
        }
    }

    /// <summary>Every request read so far, connection by connection.</summary>
    public IReadOnlyList<ReceivedRequest> Requests => Connections.SelectMany(connection => connection.Requests).ToArray();

    /// <summary>How many bytes the proxy has sent to this origin over all connections.</summary>
    public int BytesReceived => Connections.Sum(connection => connection.Reader.Received.Length);

    /// <summary>Starts an origin that runs <paramref name="handler"/> on every connection it accepts, on <paramref name="port"/> (0: a free one).</summary>
    public static ScriptedOrigin Start(Func<OriginConnection, Task> handler, int port = 0) => new(handler, port);

    /// <summary>Starts an origin that answers every request on every connection with <paramref name="respond"/>'s bytes.</summary>
    public static ScriptedOrigin Respond(Func<ReceivedRequest, string> respond) => Start(async connection =>
    {
        while (await connection.ReadRequestAsync() is { } request)
        {
            await connection.SendAsync(respond(request));
        }
    });

    /// <summary>Starts an origin that answers every request with <paramref name="response"/>.</summary>
    public static ScriptedOrigin Respond(string response) => Respond(_ => response);

    /// <summary>Starts an origin that reads each connection's first request and closes the connection without a byte of response.</summary>
    public static ScriptedOrigin ClosesWithoutAnswering() => Start(async connection => await connection.ReadRequestAsync());

    /// <summary>
    /// Starts an origin that reads each connection's first request and never answers: the request stays in flight until
    /// the proxy closes the connection (or the origin is disposed).
    /// </summary>
    public static ScriptedOrigin Holds() => Start(async connection =>
    {
        await connection.ReadRequestAsync();
        await connection.Reader.ReadToEndAsync();
    });

    /// <summary>The only request the origin received; fails the test, naming any handler fault, otherwise.</summary>
    public ReceivedRequest SingleRequest()
    {
        var requests = Requests;
        var faults = string.Join("; ", Connections.Select(connection => connection.Fault?.Message).OfType<string>());
        Assert.True(requests.Count == 1, $"Expected one request at the origin, got {requests.Count}. Origin faults: {faults}");
        return requests[0];
    }

    /// <summary>Waits until the handler of every connection accepted so far has returned, which the proxy closing it brings about.</summary>
    public Task ConnectionsEndedAsync()
    {
        lock (_connections)
        {
            return Task.WhenAll(_handlers).WaitAsync(Deadline.Io);
        }
    }

    /// <summary>
    /// Goes down as a killed process does: stops listening (a connect is refused) and resets every open connection. The
    /// handlers end as their reads and writes fail (<see cref="ConnectionsEndedAsync"/>).
    /// </summary>
    public async Task ResetAsync()
    {
        await _acceptor.StopAsync();
        foreach (var connection in Connections)
        {
            try
            {
                connection.Reset();
            }
            catch (ObjectDisposedException)
            {
                // Closed already, by the proxy or by its handler.
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _acceptor.StopAsync();
        Task[] handlers;
        lock (_connections)
        {
            handlers = _handlers.ToArray();
        }

        foreach (var connection in Connections)
        {
            await connection.DisposeAsync();
        }

        await Task.WhenAll(handlers).WaitAsync(Deadline.Io);
    }

    private Task Accept(Socket socket)
    {
        socket.NoDelay = true;
        lock (_connections)
        {
            var connection = new OriginConnection(socket, _connections.Count);
            _connections.Add(connection);
            _handlers.Add(RunAsync(connection));
        }

        return Task.CompletedTask;
    }

    private async Task RunAsync(OriginConnection connection)
    {
        await Task.Yield();
        try
        {
            await _handler(connection);
        }
        catch (Exception e)
        {
            connection.Fault = e;
        }
        finally
        {
            await connection.DisposeAsync();
        }
    }
}
