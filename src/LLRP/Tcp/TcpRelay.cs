using System.Buffers;
using System.IO.Pipelines;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;

namespace LLRP.Tcp;

/// <summary>
/// Relays one client connection and its upstream connection both ways until both are done:
/// - client → destination: read from the client's transport pipe (bytes Kestrel already read come first), sent on the
///   upstream socket; the client's end of stream becomes a shutdown of the upstream socket's sending side;
/// - destination → client: read from the upstream socket into a pooled buffer taken only once data is there (an idle
///   relay holds none), sent on the client's socket (<see cref="IConnectionSocketFeature"/>), whose sending side is shut
///   down at the destination's end of stream, while the client may still send;
/// - a reset on either side resets the other (SO_LINGER 0, then close): a peer never takes a cut stream for a complete one;
/// - a reset of the side whose bytes wait for the other's room, which no receive sees while they wait, is found by the
///   heartbeat (<see cref="OnHeartbeat"/>, each second) in that side's pending error (<c>SO_ERROR</c>) and passed on;
/// - no byte either way for the idle timeout (<see cref="OnHeartbeat"/>) closes both with a FIN; Kestrel's abort of the
///   client connection at the end of the shutdown timeout closes the upstream connection.
/// The first end decides how the relay ended (<see cref="End"/>). With splice (<c>tcp.splice</c>, Linux) the relay is a
/// <see cref="Loop.LoopRelay"/> instead, with the same ends; this copy loop is the fallback.
/// </summary>
internal sealed class TcpRelay : ITcpRelay
{
    /// <summary>The read size from the destination: the same as the client side's pipe segments (4 KiB) gave too many system calls for bulk transfers.</summary>
    private const int BufferSize = 64 * 1024;

    private readonly ConnectionContext _client;
    private readonly Socket _clientSocket;
    private readonly Socket _upstream;
    private readonly long _idleMs;
    private long _lastActivity = Environment.TickCount64;
    private int _end = -1;
    private long _fromClient;
    private long _toClient;
    private bool _sendingToClient;
    private bool _sendingToUpstream;

    public TcpRelay(ConnectionContext client, Socket upstream, TimeSpan idleTimeout)
    {
        _client = client;
        _clientSocket = client.Features.Get<IConnectionSocketFeature>()?.Socket
            ?? throw new InvalidOperationException("A TCP route's connection has no socket: the TCP front end runs on Kestrel's sockets transport.");
        _upstream = upstream;
        _idleMs = (long)idleTimeout.TotalMilliseconds;
    }

    /// <summary>How the relay ended; <see cref="TcpRelayEnd.Closed"/> unless a reset, a timeout or an abort came first.</summary>
    public TcpRelayEnd End => _end < 0 ? TcpRelayEnd.Closed : (TcpRelayEnd)_end;

    /// <summary>Bytes read from the client and sent to the destination.</summary>
    public long FromClient => Interlocked.Read(ref _fromClient);

    /// <summary>Bytes read from the destination and sent to the client.</summary>
    public long ToClient => Interlocked.Read(ref _toClient);

    public async Task RunAsync()
    {
        await Task.WhenAll(ClientToUpstreamAsync(), UpstreamToClientAsync());
        _upstream.Dispose();
    }

    /// <summary>
    /// Passes on a reset of a side whose bytes wait for the other's room (a send to the other side is pending, so nothing
    /// receives from it), and closes both sides when the relay has been idle for its timeout.
    /// </summary>
    public void OnHeartbeat(long now)
    {
        if (Volatile.Read(ref _sendingToClient) && HasPendingError(_upstream))
        {
            Reset(TcpRelayEnd.UpstreamReset, _clientSocket);
        }
        else if (Volatile.Read(ref _sendingToUpstream) && HasPendingError(_clientSocket))
        {
            Reset(TcpRelayEnd.ClientReset, _upstream);
        }
        else if (now - Volatile.Read(ref _lastActivity) >= _idleMs)
        {
            Stop(TcpRelayEnd.IdleTimeout);
        }
    }

    private async Task ClientToUpstreamAsync()
    {
        var input = _client.Transport.Input;
        try
        {
            while (true)
            {
                var result = await input.ReadAsync();
                var buffer = result.Buffer;
                if (!buffer.IsEmpty)
                {
                    Volatile.Write(ref _sendingToUpstream, true);
                    foreach (var segment in buffer)
                    {
                        await _upstream.SendAsync(segment, SocketFlags.None);
                    }

                    Volatile.Write(ref _sendingToUpstream, false);

                    Interlocked.Add(ref _fromClient, buffer.Length);
                    Volatile.Write(ref _lastActivity, Environment.TickCount64);
                }

                input.AdvanceTo(buffer.End);
                if (result.IsCompleted || result.IsCanceled)
                {
                    break;
                }
            }

            _upstream.Shutdown(SocketShutdown.Send);
        }
        catch (ConnectionResetException)
        {
            Reset(TcpRelayEnd.ClientReset, _upstream);
        }
        catch (SocketException e) when (IsReset(e))
        {
            Reset(TcpRelayEnd.UpstreamReset, _clientSocket);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or ConnectionAbortedException or IOException or InvalidOperationException)
        {
            // Stopped from the other direction, the heartbeat or Kestrel's abort: the end is theirs to say.
            Stop(TcpRelayEnd.Aborted);
        }

        // The input is left to Kestrel, which completes it when the handler returns: completed here while the client's
        // socket is still open, Kestrel would close that socket with a RST.
    }

    private async Task UpstreamToClientAsync()
    {
        byte[]? buffer = null;
        try
        {
            var drained = true;
            while (true)
            {
                if (drained)
                {
                    // Waits for data without a buffer, so that an idle relay holds none.
                    await _upstream.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None);
                }

                buffer ??= ArrayPool<byte>.Shared.Rent(BufferSize);
                var read = await _upstream.ReceiveAsync(buffer.AsMemory(0, BufferSize), SocketFlags.None);
                Volatile.Write(ref _sendingToClient, true);
                if (read == 0)
                {
                    _clientSocket.Shutdown(SocketShutdown.Send);
                    return;
                }

                await _clientSocket.SendAsync(buffer.AsMemory(0, read), SocketFlags.None);
                Volatile.Write(ref _sendingToClient, false);
                Interlocked.Add(ref _toClient, read);
                Volatile.Write(ref _lastActivity, Environment.TickCount64);
                drained = read < BufferSize;
                if (drained)
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = null;
                }
            }
        }
        catch (SocketException e) when (IsReset(e))
        {
            if (Volatile.Read(ref _sendingToClient))
            {
                Reset(TcpRelayEnd.ClientReset, _upstream);
            }
            else
            {
                Reset(TcpRelayEnd.UpstreamReset, _clientSocket);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Stopped from the other direction, the heartbeat or the shutdown: the end is theirs to say.
            Stop(TcpRelayEnd.Aborted);
        }
        finally
        {
            if (buffer is not null)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    /// <summary>Whether <paramref name="socket"/> has a pending error (<c>SO_ERROR</c>, which reading clears): a reset, once epoll's error is there.</summary>
    private static bool HasPendingError(Socket socket)
    {
        try
        {
            return (int)socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.Error)! != 0;
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Closed meanwhile: the relay is ending by another way.
            return false;
        }
    }

    private static bool IsReset(SocketException e) => e.SocketErrorCode is SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown;

    /// <summary>Passes a reset on: SO_LINGER 0 and a close make the kernel send RST to <paramref name="other"/>'s peer.</summary>
    private void Reset(TcpRelayEnd end, Socket other)
    {
        if (Interlocked.CompareExchange(ref _end, (int)end, -1) != -1)
        {
            return;
        }

        try
        {
            other.LingerState = new LingerOption(true, 0);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Already closed: nothing is left to reset.
        }

        other.Dispose();
        CloseBoth();
    }

    /// <summary>Ends the relay for <paramref name="end"/> unless it has ended already: both sides closed.</summary>
    private void Stop(TcpRelayEnd end)
    {
        if (Interlocked.CompareExchange(ref _end, (int)end, -1) == -1)
        {
            CloseBoth();
        }
    }

    /// <summary>
    /// Closes the upstream connection and ends the wait for the client's bytes, so that both loops end and the handler
    /// returns (Kestrel then closes the client connection with a FIN); a send to a client that stopped reading is ended
    /// by shutting its socket down.
    /// </summary>
    private void CloseBoth()
    {
        // .NET closes a socket disposed with an operation pending and its sending side open with a RST: this FIN comes first.
        ShutDown(_upstream);
        _upstream.Dispose();
        _client.Transport.Input.CancelPendingRead();
        if (Volatile.Read(ref _sendingToClient))
        {
            ShutDown(_clientSocket);
        }
    }

    /// <summary>Shuts both sides of <paramref name="socket"/> down (a FIN), which also ends a receive or a send pending on it.</summary>
    private static void ShutDown(Socket socket)
    {
        try
        {
            socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Reset or closed already.
        }
    }
}
