using System.Net;
using System.Text;
using LLRP.FunctionalTests.Http2;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.FunctionalTests.Tcp;

namespace LLRP.FunctionalTests.ProxyProtocol;

/// <summary>
/// HTTP/2 clients' requests to a cluster sending the PROXY protocol, in raw mode with either strategy: each stream goes
/// on an upstream connection of its own that starts with the header of its client (proxy-protocol.txt §2.1), never on
/// one that speaks for another client, and never over HttpClient's shared connections without a header.
/// </summary>
public sealed class ProxyHeaderHttp2StreamTests
{
    public static TheoryData<string> RawModes => new(Http2Servers.OnEvery(LlrpModes.RawOnly));

    [Theory]
    [MemberData(nameof(RawModes))]
    public async Task TwoClients_EachStreamOnAConnectionWithItsClientsHeader(string mode)
    {
        await using var origin = TcpOrigin.Manual();
        using var root = ContentRoot.WithSettings($$"""
            {
              "ReverseProxy": {
                "Routes": { "r": { "ClusterId": "c", "Match": { "Path": "/{**rest}" } } },
                "Clusters": { "c": { "Destinations": { "d": { "Address": "http://127.0.0.1:{{origin.Port}}/" } }, "Metadata": { "Llrp.ProxyProtocol": "v1" } } }
              }
            }
            """);
        await using var proxy = await TestHosts.StartProxyInContentRootAsync(root, mode, "proxyProtocol.accept=true", "proxyProtocol.trustedNetworks=127.0.0.1");
        using var one = ProxyHeaderClients.Create(proxy.Port, "203.0.113.7");
        using var two = ProxyHeaderClients.Create(proxy.Port, "203.0.113.8");

        await AssertForwardedAsync(one, "/one", "203.0.113.7");
        await AssertForwardedAsync(one, "/again", "203.0.113.7");
        await AssertForwardedAsync(two, "/two", "203.0.113.8");
        Assert.Equal(3, origin.Accepted);

        async Task AssertForwardedAsync(HttpClient client, string path, string source)
        {
            var response = client.GetAsync($"{proxy.Url}{path}");
            using var upstream = await origin.AcceptAsync();
            var expected = $"PROXY TCP4 {source} 127.0.0.1 4000 {proxy.Port}\r\nGET {path} HTTP/1.1\r\n";
            Assert.Equal(expected, await TcpSockets.ReceiveAsync(upstream, expected.Length));
            var head = new StringBuilder();
            while (!head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
            {
                head.Append(await TcpSockets.ReceiveAsync(upstream, 1));
            }

            await TcpSockets.SendAsync(upstream, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            using var answered = await response;
            Assert.Equal(HttpVersion.Version20, answered.Version);
            Assert.Equal("ok", await answered.Content.ReadAsStringAsync());
            await TcpSockets.AssertEndedAsync(upstream);
        }
    }
}
