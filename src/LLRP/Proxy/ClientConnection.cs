using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using System.Text;
using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

/// <summary>
/// One client connection in raw mode. The flow, per read of the client input:
/// 1. parse every complete request head in the buffer (a batch; a request whose body is still arriving ends it);
/// 2. re-emit each head, and each body already buffered, into the upstream output; flush once;
/// 3. read the responses in order, re-emit each head and stream each body to the client; flush once;
/// 4. advance the client input past the batch, in one place.
/// A request whose body is still arriving is forwarded alone: its body is streamed upstream while its response is read.
/// </summary>
internal sealed partial class ClientConnection : ITrackedConnection
{
    private const int MaxBatch = 64;

    private readonly ConnectionContext _connection;
    private readonly PipeReader _clientInput;
    private readonly PipeWriter _clientOutput;
    private readonly ProxyOptions _options;
    private readonly RequestLimits _limits;
    private readonly IUpstreamConnectionFactory _connector;
    private readonly UpstreamConnectionPool? _pool;
    private readonly ProxyMetrics _metrics;
    private readonly ClientConnectionTracker _tracker;
    private readonly RequestHeadWriter _headWriter;
    private readonly FailureLog _failureLog;
    private readonly RequestHead _request = new();
    private readonly ResponseHead _response = new();
    private readonly PendingRequest[] _pending = new PendingRequest[MaxBatch];
    private UpstreamConnection? _upstream;
    private CancellationTokenSource? _responseTimer;
    private RejectionReason _bodyRejection;
    private bool _clientGone;
    private bool _requestBodyRead;
    private long _deadline = long.MaxValue;
    private volatile bool _deadlineExpired;
    private volatile bool _stopping;

    public ClientConnection(ConnectionContext connection, DownstreamEndpoint downstream, RawModeServices services)
    {
        _connection = connection;
        _clientInput = connection.Transport.Input;
        _clientOutput = connection.Transport.Output;
        _options = services.Options;
        _limits = RequestLimits.From(_options);
        _connector = services.Connector;
        _pool = services.Pool;
        _metrics = services.Metrics;
        _tracker = services.Tracker;
        _failureLog = services.FailureLog;
        _headWriter = new RequestHeadWriter(downstream, _options, ClientAddress(connection.RemoteEndPoint));
    }

    public long Deadline => Volatile.Read(ref _deadline);

    public async Task RunAsync()
    {
        _metrics.ClientConnectionOpened();
        _tracker.Add(this);
        var headDeadline = long.MaxValue;
        try
        {
            while (!_stopping)
            {
                Volatile.Write(ref _deadline, headDeadline != long.MaxValue ? headDeadline : Environment.TickCount64 + (long)_options.KeepAliveTimeout.TotalMilliseconds);

                var result = await _clientInput.ReadAsync();
                var buffer = result.Buffer;
                if (result.IsCanceled)
                {
                    if (_deadlineExpired && !buffer.IsEmpty)
                    {
                        _clientOutput.Write(ErrorResponses.RequestTimeout);
                    }

                    break;
                }

                if (buffer.IsEmpty && result.IsCompleted)
                {
                    break;
                }

                Volatile.Write(ref _deadline, long.MaxValue);
                var batch = await ForwardBatchAsync(buffer, result.IsCompleted);
                _metrics.BytesReceived(buffer.Slice(buffer.Start, batch.Consumed).Length);
                _clientInput.AdvanceTo(batch.Consumed, batch.Examined);
                var headPending = !batch.Consumed.Equals(batch.Examined);
                headDeadline = !headPending ? long.MaxValue
                    : headDeadline != long.MaxValue ? headDeadline
                    : Environment.TickCount64 + (long)_options.RequestHeadersTimeout.TotalMilliseconds;
                var close = batch.Close;
                if (batch.StreamsBody)
                {
                    close = await ForwardStreamingRequestAsync();
                }

                if (!await FlushClientAsync() || close)
                {
                    break;
                }
            }

            await FlushClientAsync();
        }
        catch (Exception e) when (IsConnectionFailure(e))
        {
            // The client went away; there is nobody left to answer.
        }
        finally
        {
            _tracker.Remove(this);
            DiscardUpstream();
            _responseTimer?.Dispose();
            _metrics.ClientConnectionClosed();
        }
    }

    /// <summary>Called by the heartbeat: the client was idle, or sent a head too slowly (slowloris).</summary>
    public void OnDeadlineExpired()
    {
        _deadlineExpired = true;
        _clientInput.CancelPendingRead();
    }

    /// <summary>Called on shutdown: an idle connection closes now, a busy one after its response.</summary>
    public void OnStopping()
    {
        _stopping = true;
        if (Deadline != long.MaxValue)
        {
            _clientInput.CancelPendingRead();
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
