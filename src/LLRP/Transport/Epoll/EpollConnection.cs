using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Transport.Epoll;

/// <summary>
/// A socket on one <see cref="EventLoop"/>, behind an input and an output pipe whose readers and writers run inline: the
/// loop receives only when epoll says readable (<see cref="Receive"/>), and sends what was written once per iteration
/// (<see cref="Flush"/>). Completing the output half-closes the socket; <see cref="Abort(ConnectionAbortedException)"/>
/// closes it at once; <see cref="DisposeAsync"/> closes it once what was written has left. All socket work happens on the
/// loop's thread; other threads post theirs.
/// </summary>
internal sealed partial class EpollConnection : ConnectionContext, IReadinessHandler
{
    private static long s_lastId;

    private readonly EventLoop _loop;
    private readonly Socket _socket;
    private readonly int _fd;
    private readonly Pipe _input;
    private readonly Pipe _output;
    private readonly ReceivingPipeReader _inputReader;
    private TaskCompletionSource? _closed;
    private CancellationTokenSource? _closedToken;
    private IDictionary<object, object?>? _items;
    private ConnectionAbortedException? _abortReason;

    /// <summary>What the loop failed with (<see cref="Fail"/>): the one end of the output whose writer sees an exception.</summary>
    private Exception? _unexpectedError;
    private string? _connectionId;
    private int _slot = -1;
    private volatile bool _isClosed;
    private bool _disposeRequested;

    public EpollConnection(EventLoop loop, Socket socket, PinnedBlockPool pool)
    {
        _loop = loop;
        _socket = socket;
        _fd = (int)socket.SafeHandle.DangerousGetHandle();
        MemoryPool = pool;
        _input = new Pipe(pool.InputPipeOptions);
        _output = new Pipe(pool.OutputPipeOptions);
        _inputReader = new ReceivingPipeReader(_input.Reader);
        Transport = new DuplexPipe(_inputReader, new SendingPipeWriter(_output.Writer, this));
    }

    /// <summary>The loop whose thread serves this connection.</summary>
    public EventLoop Loop => _loop;

    public override IDuplexPipe Transport { get; set; }

    public override string ConnectionId
    {
        get => _connectionId ??= $"E{Interlocked.Increment(ref s_lastId):X8}";
        set => _connectionId = value;
    }

    public override IFeatureCollection Features => this;

    /// <summary>Made when first asked for: raw mode never does.</summary>
    public override IDictionary<object, object?> Items
    {
        get => _items ??= new Dictionary<object, object?>();
        set => _items = value;
    }

    public override CancellationToken ConnectionClosed
    {
        get
        {
            if (Volatile.Read(ref _closedToken) is { } existing)
            {
                return existing.Token;
            }

            var created = new CancellationTokenSource();
            if (Interlocked.CompareExchange(ref _closedToken, created, null) is { } other)
            {
                created.Dispose();
                return other.Token;
            }

            if (_isClosed)
            {
                created.Cancel();
            }

            return created.Token;
        }

        set => throw new NotSupportedException("The epoll transport's connections say themselves when they close.");
    }

    public override EndPoint? LocalEndPoint { get; set; }

    public override EndPoint? RemoteEndPoint { get; set; }

    /// <summary>Starts serving an accepted socket: on the loop's thread, it registers and waits for what is written.</summary>
    public void Start()
    {
        LocalEndPoint = _socket.LocalEndPoint;
        RemoteEndPoint = _socket.RemoteEndPoint;
        _loop.Run(static state => ((EpollConnection)state!).Register(), this);
    }

    /// <summary>
    /// Closes the socket at once, what was flushed before handed to it first as far as it takes it without waiting (a
    /// flush's send waits for the end of the loop's iteration); the input's reader sees <paramref name="abortReason"/>, the
    /// output's writer a completed flush (<see cref="EndOutput"/>).
    /// </summary>
    public override void Abort(ConnectionAbortedException abortReason)
    {
        _abortReason ??= abortReason;
        _loop.Run(static state => ((EpollConnection)state!).SendFlushedAndClose(), this);
    }

    /// <summary>Closes the socket once the output has left (or at once if it has); completes when it is closed.</summary>
    public override ValueTask DisposeAsync()
    {
        _loop.Run(static state => ((EpollConnection)state!).RequestDispose(), this);
        return new ValueTask(ClosedTask());
    }

    /// <summary>Completes once the socket is closed; made when first asked for (an idle connection holds none).</summary>
    private Task ClosedTask()
    {
        if (Volatile.Read(ref _closed) is { } existing)
        {
            return existing.Task;
        }

        var created = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        if (Interlocked.CompareExchange(ref _closed, created, null) is { } other)
        {
            return other.Task;
        }

        if (_isClosed)
        {
            created.TrySetResult();
        }

        return created.Task;
    }

    public void OnReady(uint events)
    {
        if (_isClosed)
        {
            return;
        }

        if (_connecting is not null)
        {
            if ((events & (LinuxCalls.EpollOut | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) == 0)
            {
                return;
            }

            CompleteConnect();
            if (_isClosed)
            {
                return;
            }
        }

        if ((events & (LinuxCalls.EpollRdHup | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) != 0)
        {
            _peerEnded = true;
        }

        if ((events & (LinuxCalls.EpollIn | LinuxCalls.EpollRdHup | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) != 0)
        {
            Receive();
        }

        if ((events & (LinuxCalls.EpollOut | LinuxCalls.EpollErr | LinuxCalls.EpollHup)) != 0 && _waitingWritable)
        {
            _waitingWritable = false;
            Flush();
        }
    }

    public void Fail(Exception error)
    {
        _abortReason ??= new ConnectionAbortedException(error.Message, error);
        _unexpectedError ??= error;
        Close();
    }

    private void Register()
    {
        if (_isClosed)
        {
            return;
        }

        _slot = _loop.Register(_fd, this);
        RequestSend();
    }

    private void RequestDispose()
    {
        _disposeRequested = true;
        if (_isClosed)
        {
            // Aborted before: its user is done with its ends now.
            CompleteUserEnds();
            return;
        }

        if (_slot < 0 || _outputEnded)
        {
            Close();
            return;
        }

        // Bytes may still wait in the output: they leave first (Flush closes once they have, or once sending fails).
        if (!_waitingWritable)
        {
            Flush();
        }
    }

    /// <summary>Completes the ends its user holds, once disposed: with both ends of each pipe complete, the pipes return their blocks.</summary>
    private void CompleteUserEnds()
    {
        _input.Reader.Complete();
        _output.Writer.Complete();
    }

    /// <summary>
    /// Closes the socket, on the loop's thread: the input completes with the abort reason, if any; the output with no
    /// exception unless the loop failed (<see cref="EndOutput"/>).
    /// </summary>
    private void Close()
    {
        if (_isClosed)
        {
            return;
        }

        _isClosed = true;
        if (_slot >= 0)
        {
            _loop.Unregister(_slot);
        }

        var reason = _abortReason;
        if (_disposeRequested)
        {
            CompleteUserEnds();
        }

        if (_connecting is { } connecting)
        {
            _connecting = null;
            connecting.TrySetException(reason ?? new ConnectionAbortedException("The connection closed before it was established."));
        }

        if (!_inputEnded)
        {
            _inputEnded = true;
            _input.Writer.Complete(reason);
        }

        if (!_outputEnded)
        {
            _outputEnded = true;
            _output.Reader.Complete(_unexpectedError);
        }

        _socket.Dispose();

        Interlocked.CompareExchange(ref _closed, null, null)?.TrySetResult();
        if (Interlocked.CompareExchange(ref _closedToken, null, null) is { } token)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static token => token.Cancel(), token, preferLocal: false);
        }
    }
}
