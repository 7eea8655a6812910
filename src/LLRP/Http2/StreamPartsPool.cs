using System.Collections.Concurrent;
using LLRP.Http1;
using LLRP.Upstream.Http2Client;
using LLRP.Upstream.Sockets;

namespace LLRP.Http2;

/// <summary>
/// The <see cref="StreamParts"/> request streams take and give back, so a stream reuses the buffers and caches of one that
/// ended (requests repeat their fields, target and destination across streams as across a connection's requests). Keeps
/// at most <see cref="Capacity"/>; a stream finding none makes its own.
/// </summary>
/// <param name="pooledExchange">Makes raw mode's exchange over its pooled HTTP/1.1 connections for new parts; null in the other modes.</param>
/// <param name="http2Exchange">Makes raw mode's exchange over its own HTTP/2 connections for new parts; null unless <c>http2.client</c> is <c>llrp</c>.</param>
internal sealed class StreamPartsPool(
    HttpMessageInvoker invoker, int maxResponseHeadSize, RewriteSettings rewrite, byte[] viaEntry, Func<PooledStreamExchange>? pooledExchange,
    Func<Http2StreamExchange>? http2Exchange = null)
{
    /// <summary>The most parts kept: more than the streams a busy proxy has open at once, a few megabytes at most.</summary>
    public const int Capacity = 1024;

    private readonly ConcurrentQueue<StreamParts> _parts = new();

    public StreamParts Take() => _parts.TryDequeue(out var parts) ? parts : new StreamParts(invoker, maxResponseHeadSize, rewrite, viaEntry, pooledExchange?.Invoke(), http2Exchange?.Invoke());

    /// <summary>Gives back parts whose stream has ended (its forwarder <see cref="Upstream.HttpClient.StreamForwarder.End"/>ed).</summary>
    public void Return(StreamParts parts)
    {
        if (_parts.Count < Capacity)
        {
            _parts.Enqueue(parts);
        }
    }
}
