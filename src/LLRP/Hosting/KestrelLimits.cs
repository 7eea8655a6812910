using LLRP.Configuration;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace LLRP.Hosting;

/// <summary>
/// The limits of Kestrel's HTTP server, which serves the proxy listeners' HTTP/2 connections (the HTTP/1.1 front end
/// applies its own): the same head limits, body limit and timeouts as HTTP/1.1, the <c>limits.http2.*</c> keys, and no
/// minimum data rate, so a long-lived stream (a gRPC call) that sends little is not cut.
/// </summary>
internal static class KestrelLimits
{
    public static void Apply(KestrelServerLimits limits, ProxyOptions options)
    {
        limits.MaxRequestHeadersTotalSize = options.MaxRequestHeadersTotalSize;
        limits.MaxRequestHeaderCount = options.MaxRequestHeaderCount;
        limits.MaxRequestBodySize = options.MaxRequestBodySize == 0 ? null : options.MaxRequestBodySize;
        limits.KeepAliveTimeout = options.KeepAliveTimeout;
        limits.RequestHeadersTimeout = options.RequestHeadersTimeout;
        limits.MinRequestBodyDataRate = null;
        limits.MinResponseDataRate = null;
        var http2 = limits.Http2;
        http2.MaxStreamsPerConnection = options.Http2.MaxConcurrentStreams;
        http2.MaxRequestHeaderFieldSize = options.Http2.MaxHeaderFieldSize;
        http2.MaxFrameSize = options.Http2.MaxFrameSize;
        http2.InitialConnectionWindowSize = options.Http2.InitialConnectionWindowSize;
        http2.InitialStreamWindowSize = options.Http2.InitialStreamWindowSize;
    }
}
