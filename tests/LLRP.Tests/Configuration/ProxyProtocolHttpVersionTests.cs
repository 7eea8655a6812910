namespace LLRP.Tests.Configuration;

/// <summary>
/// An http(s):// cluster sending the PROXY protocol: raw mode writes the header on its own HTTP/1.1 connections; at
/// HTTP/2 (or RequestVersionOrHigher) its requests would go over HttpClient's shared connections without one, so such a
/// cluster is refused at start-up (and at reload), saying the fix.
/// </summary>
public sealed class ProxyProtocolHttpVersionTests
{
    private const string Cluster = """
        {
          "ReverseProxy": {
            "Routes": { "r": { "ClusterId": "web", "Match": { "Path": "/{**rest}" } } },
            "Clusters": { "web": { "Destinations": { "w": { "Address": "http://127.0.0.1:8081/" } }, "Metadata": { "Llrp.ProxyProtocol": "v1" } } }
          }
        }
        """;

    [Theory]
    [InlineData("\"2.0\"", "\"RequestVersionExact\"")]
    [InlineData("\"2.0\"", "\"RequestVersionOrLower\"")]
    [InlineData("\"1.1\"", "\"RequestVersionOrHigher\"")]
    public void Read_AboveHttp11_Refused(string version, string policy)
    {
        var json = ReverseProxyFiles.With(ReverseProxyFiles.With(Cluster,
            "ReverseProxy:Clusters:web:HttpRequest:Version", version),
            "ReverseProxy:Clusters:web:HttpRequest:VersionPolicy", policy);

        var e = ReverseProxyFiles.Refused(json, "ReverseProxy:Clusters:web:Metadata:Llrp.ProxyProtocol", ("mode", "raw"));

        Assert.Contains("HttpRequest:Version 1.1 without RequestVersionOrHigher, or no Llrp.ProxyProtocol", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_Http11_Accepted()
        => Assert.Single(ReverseProxyFiles.Routing(ReverseProxyFiles.With(Cluster, "ReverseProxy:Clusters:web:HttpRequest:Version", "\"1.1\""), ("mode", "raw")).Clusters);
}
