using System.Net.Sockets;
using System.Text;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>One connection accepted by a <see cref="ScriptedOrigin"/>: reads what the proxy sent, writes whatever the test scripts.</summary>
public sealed class OriginConnection : IAsyncDisposable
{
    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly List<ReceivedRequest> _requests = [];

    public OriginConnection(Socket socket, int index)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        Reader = new WireReader(_stream);
        Index = index;
    }

    /// <summary>The 0-based order in which the origin accepted this connection.</summary>
    public int Index { get; }

    public WireReader Reader { get; }

    /// <summary>The requests read so far with <see cref="ReadRequestAsync"/>.</summary>
    public IReadOnlyList<ReceivedRequest> Requests
    {
        get
        {
            lock (_requests)
            {
                return _requests.ToArray();
            }
        }
    }

    /// <summary>What ended the connection's handler with an error, if anything did.</summary>
    public Exception? Fault { get; set; }

    /// <summary>Reads the next request, head and body; null when the proxy closed the connection between requests.</summary>
    public async Task<ReceivedRequest?> ReadRequestAsync()
    {
        if (await HttpHead.ReadAsync(Reader) is not { } head)
        {
            return null;
        }

        var framing = MessageFraming.OfRequest(head, out var contentLength);
        var request = new ReceivedRequest(head, framing, await MessageFraming.ReadBodyAsync(Reader, framing, contentLength));
        lock (_requests)
        {
            _requests.Add(request);
        }

        return request;
    }

    public Task SendAsync(string text) => SendAsync(Encoding.Latin1.GetBytes(text));

    public Task SendAsync(ReadOnlyMemory<byte> bytes) => Deadline.RunAsync(token => _stream.WriteAsync(bytes, token), "An origin send");

    /// <summary>Closes the connection with a TCP reset instead of a graceful close.</summary>
    public void Reset()
    {
        _socket.LingerState = new LingerOption(true, 0);
        _socket.Close();
    }

    public ValueTask DisposeAsync()
    {
        _stream.Dispose();
        return ValueTask.CompletedTask;
    }
}
