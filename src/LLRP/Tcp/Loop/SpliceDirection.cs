using System.Net.Sockets;
using System.Runtime.InteropServices;
using LLRP.Tcp.Splice;
using LLRP.Transport.Epoll;

namespace LLRP.Tcp.Loop;

/// <summary>
/// One direction of a <see cref="LoopRelay"/>, moved on the loop's thread when epoll says its source is readable or its
/// destination writable: source → pipe → destination with <c>splice(2)</c>, until the source would block (the edge is
/// used up, as edge-triggered readiness requires), the destination is full (the bytes wait in the pipe for its output
/// readiness), or the source ends (its FIN passed on as a shutdown of the destination's sending side). A pipe is taken from
/// the pool only while bytes are in flight, so an idle direction holds none. Bytes read before the relay (past a PROXY
/// protocol header) are sent first.
/// </summary>
internal sealed class SpliceDirection
{
    /// <summary>Pipefuls moved in a row before the rest waits for the loop's next iteration: a source that never runs dry does not hold the loop.</summary>
    private const int SplicesPerTurn = 16;

    private const uint Flags = LinuxCalls.SpliceMove | LinuxCalls.SpliceNonblock;

    private readonly LoopRelay _relay;
    private readonly int _source;
    private readonly int _destination;
    private readonly Socket _destinationSocket;
    private readonly SplicePipePool _pipes;
    private byte[]? _head;
    private int _headSent;
    private SplicePipe? _pipe;
    private nint _pending;

    /// <param name="fromClient">Whether the source is the client's socket.</param>
    /// <param name="head">Bytes to send before the first splice; null for none.</param>
    public SpliceDirection(LoopRelay relay, int source, Socket destination, bool fromClient, SplicePipePool pipes, byte[]? head)
    {
        _relay = relay;
        _source = source;
        _destinationSocket = destination;
        _destination = (int)destination.SafeHandle.DangerousGetHandle();
        FromClient = fromClient;
        _pipes = pipes;
        _head = head;
    }

    public bool FromClient { get; }

    /// <summary>Whether bytes wait for the destination's room: the source's readiness is left until they have gone.</summary>
    public bool WaitsForDestination { get; private set; }

    /// <summary>The source's end of stream was passed on.</summary>
    public bool Ended { get; private set; }

    public void Pump()
    {
        for (var turn = 0; turn < SplicesPerTurn; turn++)
        {
            if (_pending > 0 || _head is not null)
            {
                if (!SendPending())
                {
                    return;
                }

                continue;
            }

            if (Ended)
            {
                return;
            }

            _pipe ??= _pipes.Rent();
            if (_pipe is null)
            {
                // Out of descriptors: the relay cannot go on without copying, which the loop does not do.
                _relay.Stop(TcpRelayEnd.Aborted);
                return;
            }

            var read = LinuxCalls.Splice(_source, 0, _pipe.WriteEnd, 0, SplicePipe.Capacity, Flags);
            if (read > 0)
            {
                _pending = read;
                continue;
            }

            var error = Marshal.GetLastPInvokeError();
            _pipes.Return(_pipe);
            _pipe = null;
            if (read == 0)
            {
                Ended = true;
                _relay.SourceEnded(_destinationSocket);
                return;
            }

            if (error != LinuxCalls.EAgain)
            {
                _relay.Failed(error, FromClient, onSource: true);
            }

            return;
        }

        _relay.Loop.Post(static state => ((SpliceDirection)state!).Resume(), this);
    }

    /// <summary>Gives the pipe back when the relay ends: pooled when empty, else closed (its bytes go nowhere).</summary>
    public void Release()
    {
        if (_pipe is null)
        {
            return;
        }

        if (_pending == 0)
        {
            _pipes.Return(_pipe);
        }
        else
        {
            _pipe.Close();
        }

        _pipe = null;
    }

    private void Resume()
    {
        if (!_relay.IsOver)
        {
            Pump();
        }
    }

    /// <returns>True when some went; false when the destination is full (<see cref="WaitsForDestination"/>) or failed.</returns>
    private bool SendPending()
    {
        nint sent;
        int error;
        if (_head is { } head)
        {
            sent = _destinationSocket.Send(head.AsSpan(_headSent), SocketFlags.None, out var result);
            error = result switch
            {
                SocketError.Success => 0,
                SocketError.WouldBlock => LinuxCalls.EAgain,
                SocketError.ConnectionReset => LinuxCalls.EConnReset,
                SocketError.Shutdown => LinuxCalls.EPipe,
                _ => (int)result,
            };
            if (error == 0 && (_headSent += (int)sent) == head.Length)
            {
                _head = null;
            }
        }
        else
        {
            sent = LinuxCalls.Splice(_pipe!.ReadEnd, 0, _destination, 0, (nuint)_pending, Flags);
            error = sent < 0 ? Marshal.GetLastPInvokeError() : 0;
            if (sent > 0)
            {
                _pending -= sent;
            }
        }

        if (error == 0)
        {
            WaitsForDestination = false;
            _relay.Moved(FromClient, sent);
            return true;
        }

        if (error == LinuxCalls.EAgain)
        {
            WaitsForDestination = true;
        }
        else
        {
            _relay.Failed(error, FromClient, onSource: false);
        }

        return false;
    }
}
