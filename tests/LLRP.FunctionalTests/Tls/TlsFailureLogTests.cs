using LLRP.FunctionalTests.Infrastructure;
using LLRP.Testing;

namespace LLRP.FunctionalTests.Tls;

/// <summary>A TLS handshake with a destination that fails is logged with its reason and the key that would skip the check.</summary>
public sealed class TlsFailureLogTests : IDisposable
{
    private readonly TestCertificate _certificate = TestCertificate.Create();

    public void Dispose() => _certificate.Dispose();

    [Theory]
    [MemberData(nameof(LlrpModes.All), MemberType = typeof(LlrpModes))]
    public async Task SelfSignedDestination_LogsUntrustedRootAndTheInsecureKey(string mode)
    {
        await using var origin = await TestHosts.StartTlsDownstreamAsync(_certificate);
        var line = await FirstTlsFailureAsync(origin.Url, mode);

        Assert.Contains("TLS handshake with destination 127.0.0.1 failed: untrusted root: the chain ends in 'CN=localhost'", line, StringComparison.Ordinal);
        Assert.Contains("tls.downstreamInsecure=true", line, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(LlrpModes.Raw), MemberType = typeof(LlrpModes))]
    public async Task DestinationNotSpeakingTls_LogsTheHandshakeError(string mode)
    {
        await using var origin = await TestHosts.StartDownstreamAsync();
        var line = await FirstTlsFailureAsync($"https://127.0.0.1:{origin.Port}", mode);

        Assert.Matches("TLS handshake with destination 127.0.0.1 failed: [A-Z].+\\. Check that the destination speaks TLS on this port", line);
    }

    /// <summary>Runs the proxy process in front of <paramref name="destination"/>, asks it for one response (a 502), and returns the line that logs the TLS failure.</summary>
    private static async Task<string> FirstTlsFailureAsync(string destination, string mode)
    {
        using var root = ContentRoot.Empty();
        await using var proxy = AppProcess.StartProxy(root.Path, ["--urls=http://127.0.0.1:0", $"--downstream={destination}", .. LlrpModes.Settings(mode).Select(setting => "--" + setting)]);
        await using var client = await RawHttpClient.ConnectAsync(await proxy.ListeningPortAsync("LLRP listening on "));
        await client.SendAsync("GET / HTTP/1.1\r\nHost: client.test\r\n\r\n");

        Assert.Equal(502, (await client.ReadResponseAsync()).StatusCode);
        var reason = await proxy.LineAsync("TLS handshake with destination");
        await proxy.TerminateAsync();
        Assert.Equal(0, await proxy.ExitCodeAsync());
        return reason;
    }
}
