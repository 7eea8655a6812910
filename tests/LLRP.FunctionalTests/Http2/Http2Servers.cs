using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The HTTP/2 servers a proxy listener can run (<c>http2.server</c>), by name, as theory data: the conformance tests run
/// against each.
/// </summary>
public static class Http2Servers
{
    public const string Kestrel = "kestrel";

    public const string Llrp = "llrp";

    /// <summary>What joins a configuration of <see cref="LlrpModes"/> and a server in one theory value (<see cref="Mode"/>).</summary>
    public const char Separator = '@';

    public static TheoryData<string> All => new(Kestrel, Llrp);

    /// <summary>
    /// Every configuration of <see cref="LlrpModes.Every"/> on every server, each as one mode name (<see cref="Mode"/>), and
    /// raw mode with pipelining (<see cref="LlrpModes.RawPooledPipelined"/>) on LLRP's own server, whose streams it pipelines.
    /// </summary>
    public static TheoryData<string> Modes => new([.. OnEvery(LlrpModes.Every), Mode(Llrp, LlrpModes.RawPooledPipelined)]);

    /// <summary>
    /// <see cref="Modes"/> and raw mode with its own HTTP/2 client (<see cref="LlrpModes.OwnHttp2Client"/>) on every
    /// server: for the tests of clusters that ask HTTP/2 of their destinations.
    /// </summary>
    public static TheoryData<string> Http2ClusterModes => new(OnEvery([.. LlrpModes.Every, .. LlrpModes.OwnHttp2Client]));

    /// <summary>Each configuration of <paramref name="modes"/> on every server, as mode names (<see cref="Mode"/>).</summary>
    public static string[] OnEvery(IEnumerable<string> modes) => [.. modes.SelectMany(mode => new[] { Kestrel, Llrp }.Select(server => Mode(server, mode)))];

    /// <summary>
    /// Configuration <paramref name="mode"/> of <see cref="LlrpModes"/> on HTTP/2 server <paramref name="server"/>, as a
    /// mode name <see cref="LlrpModes.Settings"/> reads: <c>mode@server</c>, the server named even when it is the default.
    /// </summary>
    public static string Mode(string server, string mode) => $"{mode}{Separator}{server}";

    /// <summary>Every server of <see cref="All"/> crossed with every value of <paramref name="values"/>.</summary>
    public static TheoryData<string, T> Cross<T>(params T[] values)
    {
        var data = new TheoryData<string, T>();
        foreach (var server in All)
        {
            foreach (var value in values)
            {
                data.Add(server, value);
            }
        }

        return data;
    }

    /// <summary>The proxy settings (<c>key=value</c>) that select server <paramref name="server"/>, named even when it is the default.</summary>
    public static string[] Settings(string server) => [$"http2.server={server}"];

    /// <summary>Starts the proxy, in its default mode, with HTTP/2 server <paramref name="server"/> in front of <paramref name="downstream"/>; each setting is a <c>key=value</c> pair.</summary>
    public static Task<HostedApp> StartProxyAsync(string server, string downstream, params string[] settings) =>
        TestHosts.StartProxyWithSettingsAsync(downstream, [.. Settings(server), .. settings]);
}
