using LLRP.Configuration;
using LLRP.Transport.Epoll;

namespace LLRP.Upstream.Sockets;

/// <summary>
/// HTTP/1.1 pipelining of HTTP/2 streams (RFC 9112 §9.3.2, key <c>pool.pipelineDepth</c>): requests without a body whose
/// method is idempotent, sent in one turn of an event loop to one destination, go back to back on the connection the
/// first of them took, and leave in one send. Their responses come in that order: each exchange reads its own once the
/// one before gave the connection on, its response relayed whole and the connection still reusable. When the connection
/// cannot carry on (a response that closes it, a failure, an exchange that stopped waiting), nothing more is read from
/// it: each exchange behind writes its request again on another connection, as a request that may be repeated
/// (RFC 9110 §9.2.2, RFC 9112 §9.3.1). A line is joined only on the loop's thread, in the turn it was opened; the
/// exchanges of a line may end on other threads, so its state is kept under a lock.
/// </summary>
internal sealed class ResponseLine
{
    /// <summary>The connection whose line the loop running on this thread may still join.</summary>
    [ThreadStatic]
    private static UpstreamConnection? t_open;

    private readonly Lock _gate = new();
    private readonly Queue<(PooledStreamExchange Exchange, int Ticket)> _waiting = new();
    private long _turn = -1;
    private int _room;
    /// <summary>The exchange whose request was written last: another goes behind it only once its flush completed, as a pipe takes one flush at a time.</summary>
    private PooledStreamExchange? _last;

    /// <summary>
    /// Lets the requests that follow in this turn of the loop, to the same destination, go behind the one just written on
    /// <paramref name="connection"/>, up to <paramref name="depth"/> in all; off the loop's thread, nothing.
    /// </summary>
    public static void Open(UpstreamConnection connection, int depth, PooledStreamExchange first)
    {
        if (EventLoop.Current is not { } loop)
        {
            return;
        }

        var line = connection.Line ??= new ResponseLine();
        lock (line._gate)
        {
            (line._turn, line._room, line._last) = (loop.Turn, depth - 1, first);
        }

        t_open = connection;
    }

    /// <summary>
    /// The connection of the line open in this turn to <paramref name="destination"/> with room left, <paramref name="exchange"/>
    /// put at its end (<see cref="LinePlace.Waiting"/>, under <paramref name="ticket"/>, the exchange's count of joins); or null.
    /// </summary>
    public static UpstreamConnection? TryJoin(DestinationEndpoint destination, PooledStreamExchange exchange, int ticket)
    {
        if (t_open is not { } connection || EventLoop.Current is not { } loop)
        {
            return null;
        }

        var line = connection.Line!;
        lock (line._gate)
        {
            if (line._turn != loop.Turn || connection.IsAborted)
            {
                t_open = null;
                return null;
            }

            if (line._room == 0 || !ReferenceEquals(connection.Destination, destination) || line._last?.HasFlushed == false)
            {
                return null;
            }

            (line._room, line._last) = (line._room - 1, exchange);
            exchange.Place = LinePlace.Waiting;
            line._waiting.Enqueue((exchange, ticket));
        }

        connection.CountPipelined();
        return connection;
    }

    /// <summary>The exchange stops waiting for its turn: true when it was still waiting (now <see cref="LinePlace.Abandoned"/>), false when its turn came, or the line was lost, first.</summary>
    public bool Abandon(PooledStreamExchange exchange)
    {
        lock (_gate)
        {
            if (exchange.Place != LinePlace.Waiting)
            {
                return false;
            }

            exchange.Place = LinePlace.Abandoned;
            _room = 0;
            return true;
        }
    }

    /// <summary>
    /// The exchange holding the connection is done with it. With <paramref name="reusable"/>, the next exchange waiting
    /// gets the connection (<see cref="LinePlace.Turn"/>) and is returned; null when none waits, the caller then releasing
    /// the connection. When the next one stopped waiting, its response would reach no one: <paramref name="reusable"/> is
    /// cleared, and the exchanges behind it are lost (<see cref="TakeLost"/>).
    /// </summary>
    public PooledStreamExchange? PassOn(ref bool reusable)
    {
        lock (_gate)
        {
            (_room, _last) = (0, null);
            if (reusable && _waiting.TryDequeue(out var next))
            {
                if (IsWaiting(next))
                {
                    next.Exchange.Place = LinePlace.Turn;
                    return next.Exchange;
                }

                reusable = false;
            }

            return null;
        }
    }

    /// <summary>After the connection was released unreusable: the next exchange still waiting, now <see cref="LinePlace.Lost"/>; null when none is left.</summary>
    public PooledStreamExchange? TakeLost()
    {
        lock (_gate)
        {
            while (_waiting.TryDequeue(out var entry))
            {
                if (IsWaiting(entry))
                {
                    entry.Exchange.Place = LinePlace.Lost;
                    return entry.Exchange;
                }
            }

            return null;
        }
    }

    /// <summary>The entry's exchange still waits in it: not abandoned, and not gone on to a later line (its ticket moved on).</summary>
    private static bool IsWaiting((PooledStreamExchange Exchange, int Ticket) entry)
        => entry.Exchange.Ticket == entry.Ticket && entry.Exchange.Place == LinePlace.Waiting;
}
