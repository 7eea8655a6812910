using LLRP.Configuration;
using LLRP.Diagnostics;
using LLRP.Upstream.Sockets;

namespace LLRP.Upstream.Http2Client;

/// <summary>
/// The HTTP/2 connections to one destination: a stream goes on the first with a slot free under the destination's
/// SETTINGS_MAX_CONCURRENT_STREAMS, and a new connection opens only when every open one is full (as SocketsHttpHandler
/// with <c>EnableMultipleHttp2Connections</c>); streams that find none wait for the one connection being opened.
/// A new connection joins the set only once the destination's SETTINGS arrived: RFC 9113 §3.4 would let requests go
/// before them, but its SETTINGS_MAX_CONCURRENT_STREAMS is unknown until then (§6.5.2: unlimited until set), so streams
/// sent early could pass the limit and be refused. A connection that ended, was told to go away or was closed idle
/// leaves the set.
/// </summary>
/// <param name="destination">Where the connections go.</param>
/// <param name="offersHttp11">ALPN offers <c>http/1.1</c> after <c>h2</c> (<see cref="Http2ClientPool.ConnectAsync"/>).</param>
/// <param name="pool">Opens the connections.</param>
/// <param name="maxResponseHeadSize">The most bytes a response's fields may take.</param>
/// <param name="settingsTimeout">How long a new connection may take to send its SETTINGS (the connect timeout).</param>
internal sealed class Http2DestinationConnections(DestinationEndpoint destination, bool offersHttp11, Http2ClientPool pool, int maxResponseHeadSize, TimeSpan settingsTimeout)
{
    /// <summary>How many new connections one stream may see fill up before it gets a slot, before it gives up.</summary>
    private const int MaxOpenings = 3;

    private readonly Lock _sync = new();
    /// <summary>The connections open now, copied on change and read without the lock.</summary>
    private Http2ClientConnection[] _open = [];
    private Task<(Http2ClientConnection? Connection, ForwarderError Error)>? _opening;

    /// <summary>A connection with a stream slot reserved for the caller, or why none could be had.</summary>
    public async ValueTask<(Http2ClientConnection? Connection, ForwarderError Error)> AcquireAsync()
    {
        for (var openings = 0; openings < MaxOpenings; openings++)
        {
            foreach (var connection in _open)
            {
                if (connection.TryReserve())
                {
                    return (connection, ForwarderError.None);
                }
            }

            Task<(Http2ClientConnection?, ForwarderError)> opening;
            lock (_sync)
            {
                opening = _opening ??= OpenAsync();
            }

            var (opened, error) = await opening;
            lock (_sync)
            {
                if (_opening == opening)
                {
                    _opening = null;
                }
            }

            if (opened is null)
            {
                return (null, error);
            }

            if (opened.TryReserve())
            {
                return (opened, ForwarderError.None);
            }
        }

        return (null, ForwarderError.UpstreamClosed);
    }

    /// <summary>Forgets a connection that ended or was told to go away.</summary>
    public void Remove(Http2ClientConnection connection)
    {
        lock (_sync)
        {
            _open = Array.FindAll(_open, open => open != connection);
        }
    }

    private async Task<(Http2ClientConnection?, ForwarderError)> OpenAsync()
    {
        UpstreamConnection transport;
        try
        {
            transport = await pool.ConnectAsync(destination, offersHttp11);
        }
        catch (UpstreamException e)
        {
            return (null, e.Error);
        }

        var connection = new Http2ClientConnection(transport, this, maxResponseHeadSize);

        // A destination that does not answer the preface with SETTINGS does not speak HTTP/2 there: not connected.
        if (!await connection.StartAsync(settingsTimeout))
        {
            return (null, ForwarderError.ConnectFailed);
        }

        lock (_sync)
        {
            // One that ended or went away meanwhile has already asked to leave (Remove): it does not join.
            if (connection.IsUsable)
            {
                _open = [.. _open, connection];
            }
        }

        return (connection, ForwarderError.None);
    }

    /// <summary>Ends every connection open (<see cref="Http2ClientConnection.Shutdown"/>): the pool is disposed.</summary>
    public void Shutdown()
    {
        Http2ClientConnection[] open;
        lock (_sync)
        {
            (open, _open) = (_open, []);
        }

        foreach (var connection in open)
        {
            connection.Shutdown();
        }
    }

    /// <summary>Closes the connections that carried no stream for <paramref name="idleTimeoutMs"/> (<see cref="Http2ClientConnection.CloseIfIdle"/>).</summary>
    public void CloseIdle(long now, long idleTimeoutMs)
    {
        foreach (var connection in _open)
        {
            if (connection.CloseIfIdle(now, idleTimeoutMs))
            {
                Remove(connection);
            }
        }
    }
}
