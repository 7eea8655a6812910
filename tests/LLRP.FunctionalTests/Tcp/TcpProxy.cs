using System.Net;
using System.Net.Sockets;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>The proxy with one TCP route <c>t</c> on 127.0.0.1:0 to a cluster <c>c</c>, from an appsettings.json of its own.</summary>
public sealed class TcpProxy : IAsyncDisposable
{
    private readonly ContentRoot _root;

    private TcpProxy(ContentRoot root, HostedApp app)
    {
        _root = root;
        App = app;
        EndPoint = app.Services.GetRequiredService<BoundListeners>().Tcp("t");
        Port = EndPoint.Port;
    }

    public HostedApp App { get; }

    /// <summary>The address route <c>t</c> listens on.</summary>
    public IPEndPoint EndPoint { get; }

    /// <summary>The port route <c>t</c> listens on.</summary>
    public int Port { get; }

    /// <param name="route">More keys of the route, as JSON members (<c>"IdleTimeout": "00:00:01"</c>); its <c>Listen</c> is 127.0.0.1:0 unless given.</param>
    /// <param name="cluster">More keys of the cluster, as JSON members.</param>
    /// <param name="destinations">The cluster's destinations, named d0, d1, … in this order.</param>
    /// <param name="settings">Top-level settings, <c>key=value</c>.</param>
    public static Task<TcpProxy> StartAsync(string route, string cluster, string[] destinations, params string[] settings)
        => StartAsync(_ => { }, route, cluster, destinations, settings);

    /// <param name="beforeStart">Given the built proxy's services before it starts (and binds).</param>
    /// <inheritdoc cref="StartAsync(string, string, string[], string[])"/>
    public static async Task<TcpProxy> StartAsync(Action<IServiceProvider> beforeStart, string route, string cluster, string[] destinations, params string[] settings)
    {
        var named = string.Join(", ", destinations.Select((address, i) => $"\"d{i}\": {{ \"Address\": \"{address}\" }}"));
        var root = ContentRoot.WithSettings($$"""
            {
              "ReverseProxy": {
                "TcpRoutes": { "t": { {{(route.Contains("\"Listen\"", StringComparison.Ordinal) ? "" : "\"Listen\": \"127.0.0.1:0\", ")}}"ClusterId": "c"{{(route.Length > 0 ? ", " + route : "")}} } },
                "Clusters": { "c": { "Destinations": { {{named}} }{{(cluster.Length > 0 ? ", " + cluster : "")}} } }
              }
            }
            """);
        try
        {
            var app = TestHosts.BuildProxyInContentRoot(root, LlrpModes.RawPooled, settings);
            beforeStart(app.Services);
            return new TcpProxy(root, await HostedApp.StartAsync(app));
        }
        catch
        {
            root.Dispose();
            throw;
        }
    }

    public Task<Socket> ConnectAsync() => TcpSockets.ConnectAsync(EndPoint);

    public async ValueTask DisposeAsync()
    {
        await App.DisposeAsync();
        _root.Dispose();
    }
}
