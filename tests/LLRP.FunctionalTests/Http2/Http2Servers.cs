using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The HTTP/2 servers a proxy listener can run (<c>http2.server</c>), by name, as theory data: the conformance tests run
/// against each.
/// </summary>
public static class Http2Servers
{
    public const string Kestrel = "kestrel";

    public static TheoryData<string> All => new(Kestrel);

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

    /// <summary>The proxy settings (<c>key=value</c>) that select server <paramref name="server"/>: none for Kestrel's, the default.</summary>
    public static string[] Settings(string server) => server == Kestrel ? [] : [$"http2.server={server}"];

    /// <summary>Starts the proxy, in its default mode, with HTTP/2 server <paramref name="server"/> in front of <paramref name="downstream"/>; each setting is a <c>key=value</c> pair.</summary>
    public static Task<HostedApp> StartProxyAsync(string server, string downstream, params string[] settings) =>
        TestHosts.StartProxyWithSettingsAsync(downstream, [.. Settings(server), .. settings]);
}
