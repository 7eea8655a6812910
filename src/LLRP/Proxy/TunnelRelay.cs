using System.Buffers;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Proxy;

using LLRP.ClientSide;
using LLRP.Upstream;

/// <summary>
/// Relays a tunnel's bytes both ways, after <c>101 Switching Protocols</c> (RFC 9110 §7.8), until either side ends it:
/// 1. each direction copies what one side sent into the other's output and waits for that output's flush, so a side
///    that does not read holds the other back (back-pressure) instead of filling memory;
/// 2. the client's end of stream is passed on as a half-close where the destination's transport can (a socket), and the
///    destination's answer is still relayed; where it cannot, the tunnel ends;
/// 3. the destination's end of stream, or a failure on either side, ends the tunnel: a failure aborts the other side,
///    so neither sees a clean end that was not one.
/// The client connection closes after the tunnel (the session returns); the destination's end is aborted unless both
/// sides ended their streams. Every byte relayed touches the <see cref="TunnelActivity"/> that the idle timeout reads.
/// </summary>
internal static class TunnelRelay
{
    private enum CopyEnd
    {
        /// <summary>The source ended its stream.</summary>
        Completed,

        /// <summary>The copy was asked to stop.</summary>
        Stopped,

        /// <summary>The source or the destination failed.</summary>
        Failed,
    }

    /// <param name="activity">The client connection's tunnel, opened by the caller; closed here when the tunnel ends.</param>
    public static async Task RunAsync(ConnectionContext client, IUpstreamTunnel upstream, TunnelActivity activity)
    {
        var ended = false;
        try
        {
            var toUpstream = CopyAsync(client.Transport.Input, upstream.Transport.Output, activity, isToClient: false);
            var toClient = CopyAsync(upstream.Transport.Input, client.Transport.Output, activity, isToClient: true);
            if (await Task.WhenAny(toUpstream, toClient) == toUpstream)
            {
                var clientEnd = await toUpstream;
                if (clientEnd == CopyEnd.Completed && upstream.HalfCloses)
                {
                    await upstream.Transport.Output.CompleteAsync();
                }
                else
                {
                    upstream.Abort();
                }

                var downstreamEnd = await toClient;
                if (downstreamEnd == CopyEnd.Failed)
                {
                    client.Abort();
                }

                ended = clientEnd == CopyEnd.Completed && downstreamEnd == CopyEnd.Completed;
            }
            else
            {
                if (await toClient == CopyEnd.Failed)
                {
                    client.Abort();
                }

                // The client's side cannot half-close, so the tunnel ends here: whatever still goes to the destination (a
                // flush it does not read, too) is cut.
                client.Transport.Input.CancelPendingRead();
                upstream.Abort();
                await toUpstream;
            }
        }
        finally
        {
            if (!ended)
            {
                upstream.Abort();
            }

            activity.Close();
            await upstream.DisposeAsync();
        }
    }

    /// <summary>Copies until the source ends, fails or is cancelled, flushing each read so that back-pressure reaches the source.</summary>
    private static async Task<CopyEnd> CopyAsync(PipeReader source, PipeWriter destination, TunnelActivity activity, bool isToClient)
    {
        try
        {
            while (true)
            {
                var result = await source.ReadAsync();
                var buffer = result.Buffer;
                if (result.IsCanceled)
                {
                    source.AdvanceTo(buffer.Start);
                    return CopyEnd.Stopped;
                }

                foreach (var segment in buffer)
                {
                    destination.Write(segment.Span);
                }

                source.AdvanceTo(buffer.End);
                if (!buffer.IsEmpty)
                {
                    activity.Touch();
                    activity.Count(buffer.Length, isToClient);
                    var flush = await destination.FlushAsync();
                    if (flush.IsCompleted)
                    {
                        return CopyEnd.Failed;
                    }
                }

                if (result.IsCompleted)
                {
                    return CopyEnd.Completed;
                }
            }
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            return CopyEnd.Failed;
        }
    }
}
