using System.Net;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// Interim responses toward an HTTP/2 client (RFC 9110 §15.2, RFC 9113 §8.1): Kestrel's server has no API to send a
/// 1xx of the application's own (dotnet/aspnetcore#27851), so a destination's <c>103 Early Hints</c> or <c>102</c> is
/// dropped on every path and its final response follows as the stream's response; <c>100 Continue</c> is Kestrel's.
/// </summary>
public sealed class Http2InterimResponseTests
{
    // RFC 9110 §15.2: a client must be able to parse any number of 1xx before the final response; the final one is the answer.
    [Theory]
    [MemberData(nameof(Http2Servers.Modes), MemberType = typeof(Http2Servers))]
    public async Task InterimResponses_Dropped_FinalResponseReachesHttp2Client_Rfc9110_15_2(string mode)
    {
        await using var origin = ScriptedOrigin.Respond(
            "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
            + "HTTP/1.1 102 Processing\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Final: yes\r\n\r\nfinal");
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        using var client = Http2Clients.Create();

        using var response = await client.GetAsync($"{proxy.Url}/");

        Assert.Equal(HttpVersion.Version20, response.Version);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("yes", Assert.Single(response.Headers.GetValues("X-Final")));
        Assert.False(response.Headers.Contains("Link"));
        Assert.Equal("final", await response.Content.ReadAsStringAsync());
    }
}
