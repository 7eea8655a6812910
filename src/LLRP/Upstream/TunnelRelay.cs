using System.Buffers;
using System.IO.Pipelines;
using LLRP.Diagnostics;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream;

/// <summary>
/// Relays a tunnel's bytes both ways, after <c>101 Switching Protocols</c> (RFC 9110 §7.8), until either side ends it:
/// 1. each direction copies what one side sent into the other's output and waits for that output's flush, so a side
///    that does not read holds the other back (back-pressure) instead of filling memory;
/// 2. the client's end of stream is passed on as a half-close where the downstream's transport can (a socket), and the
///    downstream's answer is still relayed; where it cannot, the tunnel ends;
/// 3. the downstream's end of stream, or a failure on either side, ends the tunnel: a failure aborts the other side,
///    so neither sees a clean end that was not one.
/// The client connection closes after the tunnel (the session returns). Every byte relayed touches the
/// <see cref="TunnelActivity"/> that the idle timeout reads.
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

    public static async Task RunAsync(ConnectionContext client, IUpstreamTunnel upstream, TunnelActivity activity, ProxyMetrics metrics)
    {
        metrics.TunnelOpened();
        activity.Open();
        try
        {
            var toUpstream = CopyAsync(client.Transport.Input, upstream.Transport.Output, activity, metrics.BytesReceived);
            var toClient = CopyAsync(upstream.Transport.Input, client.Transport.Output, activity, metrics.BytesSent);
            if (await Task.WhenAny(toUpstream, toClient) == toUpstream)
            {
                if (await toUpstream == CopyEnd.Completed && upstream.HalfCloses)
                {
                    await upstream.Transport.Output.CompleteAsync();
                }
                else
                {
                    upstream.Abort();
                }

                if (await toClient == CopyEnd.Failed)
                {
                    client.Abort();
                }
            }
            else
            {
                if (await toClient == CopyEnd.Failed)
                {
                    client.Abort();
                }

                client.Transport.Input.CancelPendingRead();
                if (await toUpstream == CopyEnd.Failed)
                {
                    upstream.Abort();
                }
            }
        }
        finally
        {
            activity.Close();
            metrics.TunnelClosed();
            await upstream.DisposeAsync();
        }
    }

    /// <summary>Copies until the source ends, fails or is cancelled, flushing each read so that back-pressure reaches the source.</summary>
    private static async Task<CopyEnd> CopyAsync(PipeReader source, PipeWriter destination, TunnelActivity activity, Action<long> count)
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
                    count(buffer.Length);
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
