using LLRP.Configuration;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests;

/// <summary>The <c>mode</c> key and the prototype's flags pick the mode.</summary>
public sealed class ModeSelectionTests
{
    public static TheoryData<string, ProxyMode> Selections => new()
    {
        { "mode=raw", ProxyMode.Raw },
        { "mode=httpclient", ProxyMode.HttpClient },
        { "mode=httpclient-httpcontext", ProxyMode.HttpClientWithContext },
        { "httpclient=1", ProxyMode.HttpClient },
        { "httpclient-httpcontext=true", ProxyMode.HttpClientWithContext },
        { "mode=yarp", ProxyMode.Yarp },
        { "yarp=1", ProxyMode.Yarp },
    };

    // The mode shows in the proxy's options and in what it does with an asterisk-form target (RFC 9112 §3.2.4):
    // raw mode forwards OPTIONS *, HttpClient cannot send it, so the modes on HttpClient answer 501 and close.
    [Theory]
    [MemberData(nameof(Selections))]
    public async Task Setting_SelectsMode(string setting, ProxyMode mode)
    {
        await using var origin = ScriptedOrigin.Respond(ScriptedOrigin.Ok);
        await using var proxy = await TestHosts.StartProxyWithSettingsAsync(origin.Url, setting);
        await using var client = await proxy.ConnectAsync();

        await client.SendAsync("OPTIONS * HTTP/1.1\r\nHost: client.test\r\n\r\n");
        var response = await client.ReadResponseAsync();

        Assert.Equal(mode, proxy.Services.GetRequiredService<ProxyOptions>().Mode);
        if (mode == ProxyMode.Raw)
        {
            Assert.Equal(200, response.StatusCode);
            Assert.Equal("OPTIONS * HTTP/1.1", origin.SingleRequest().Head.StartLine);
        }
        else
        {
            Assert.Equal(501, response.StatusCode);
            Assert.Contains("close", response.Head.Tokens("Connection"));
            await client.AssertClosedByPeerAsync();
            Assert.Equal(0, origin.BytesReceived);
        }
    }
}
