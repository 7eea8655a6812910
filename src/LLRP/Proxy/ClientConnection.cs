using System.IO.Pipelines;
using System.Net;
using System.Text;
using LLRP.Configuration;
using LLRP.Http1;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.Logging;

namespace LLRP.Proxy;

/// <summary>
/// One client connection in raw mode. The flow, per read of the client input:
/// 1. parse every complete request head in the buffer (a batch; a request whose body is still arriving ends it);
/// 2. re-emit each head, and each body already buffered, into the upstream output; flush once;
/// 3. read the responses in order, re-emit each head and stream each body to the client; flush once;
/// 4. advance the client input past the batch, in one place.
/// A request whose body is still arriving is forwarded alone: its body is streamed upstream while its response is read.
/// </summary>
internal sealed partial class ClientConnection
{
    private const int MaxBatch = 64;

    private readonly ConnectionContext _connection;
    private readonly PipeReader _clientInput;
    private readonly PipeWriter _clientOutput;
    private readonly ProxyOptions _options;
    private readonly RequestLimits _limits;
    private readonly IUpstreamConnectionFactory _connector;
    private readonly UpstreamConnectionPool? _pool;
    private readonly RequestHeadWriter _headWriter;
    private readonly ILogger _logger;
    private readonly RequestHead _request = new();
    private readonly ResponseHead _response = new();
    private readonly PendingRequest[] _pending = new PendingRequest[MaxBatch];
    private UpstreamConnection? _upstream;
    private CancellationTokenSource? _responseTimer;
    private RejectionReason _bodyRejection;

    public ClientConnection(
        ConnectionContext connection,
        DownstreamEndpoint downstream,
        ProxyOptions options,
        IUpstreamConnectionFactory connector,
        UpstreamConnectionPool? pool,
        ILogger logger)
    {
        _connection = connection;
        _clientInput = connection.Transport.Input;
        _clientOutput = connection.Transport.Output;
        _options = options;
        _limits = RequestLimits.From(options);
        _connector = connector;
        _pool = pool;
        _logger = logger;
        _headWriter = new RequestHeadWriter(downstream, options, ClientAddress(connection.RemoteEndPoint));
    }

    public async Task RunAsync()
    {
        try
        {
            while (true)
            {
                var result = await _clientInput.ReadAsync();
                var buffer = result.Buffer;
                if (buffer.IsEmpty && result.IsCompleted)
                {
                    return;
                }

                var batch = await ForwardBatchAsync(buffer, result.IsCompleted);
                _clientInput.AdvanceTo(batch.Consumed, batch.Examined);
                var close = batch.Close;
                if (batch.StreamsBody)
                {
                    close = await ForwardStreamingRequestAsync();
                }

                await _clientOutput.FlushAsync();
                if (close)
                {
                    return;
                }
            }
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            // The client went away; there is nobody left to answer.
        }
        finally
        {
            DiscardUpstream();
            _responseTimer?.Dispose();
        }
    }

    private static bool IsConnectionFailure(Exception e)
        => e is IOException or ConnectionResetException or ConnectionAbortedException or ObjectDisposedException;

    private static byte[] ClientAddress(EndPoint? endPoint)
    {
        if (endPoint is not IPEndPoint ip)
        {
            return "unknown"u8.ToArray();
        }

        var address = ip.Address.IsIPv4MappedToIPv6 ? ip.Address.MapToIPv4() : ip.Address;
        return Encoding.ASCII.GetBytes(address.ToString());
    }
}
