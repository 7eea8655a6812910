using System.Diagnostics.Metrics;
using System.Net.Sockets;
using LLRP.FunctionalTests.Hardening;
using LLRP.FunctionalTests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// How LLRP's own HTTP/2 server ends a connection whose client reads nothing: the last frames it flushes (GOAWAY after a
/// connection error, RFC 9113 §5.4.1) cannot hold the connection past <c>timeouts.keepAliveMs</c>. Kestrel's server
/// bounds its own ending otherwise, so this runs against LLRP's server alone.
/// </summary>
public sealed class OwnServerEndingTests
{
    // RFC 9113 §5.4.1: after a connection error the server sends GOAWAY and closes the connection. A client that stopped
    // reading (its windows wide open, so only the transport holds the response back) leaves that flush pending; the
    // connection still ends, within the keep-alive timeout, without the client reading a byte. The response is seen
    // stalled from the kernel: the proxy's connection to the origin enters zero-window probing. The connection's end is
    // Kestrel's own count of this proxy's open connections (kestrel.active_connections) back at zero.
    [Fact]
    public async Task ConnectionErrorWhileClientNotReading_ConnectionEndsWithinKeepAliveTimeout()
    {
        await using var origin = new StallingOrigin(256L * 1024 * 1024);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, OwnServerHardeningTests.OwnServer, "timeouts.keepAliveMs=1000");
        using var connections = new MeterListener();
        long open = 0;
        var scope = proxy.Services.GetRequiredService<IMeterFactory>();
        connections.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Name == "kestrel.active_connections" && ReferenceEquals(instrument.Meter.Scope, scope))
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        connections.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref open, value));
        connections.Start();
        await using var wire = await Http2Wire.ConnectAsync(proxy.Port, (Http2Wire.InitialWindowSize, int.MaxValue));
        await wire.SendWindowUpdateAsync(0, int.MaxValue - 65_535);
        await wire.SendHeadersAsync(1, endStream: true, Http2Wire.Request("GET", proxy.Authority, "/large"));
        var upstream = await Deadline.RunAsync(token => new ValueTask<Socket>(origin.Connection.WaitAsync(token)), "The request reaching the origin");
        await Deadline.UntilAsync(() => TcpInfo.ZeroWindowBackoff(upstream) >= 1, "The proxy's receive window to the origin closing");

        await wire.SendFrameAsync(Http2Wire.Data, 0, 0, [1]);

        Assert.Equal(1, Interlocked.Read(ref open));
        await Deadline.UntilAsync(() => Interlocked.Read(ref open) == 0, "The connection ending while its client reads nothing");
    }
}
