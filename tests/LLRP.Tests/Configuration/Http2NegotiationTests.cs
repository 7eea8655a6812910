using System.Net;
using LLRP.Configuration.Routes;
using LLRP.Tests.Routing;

namespace LLRP.Tests.Configuration;

/// <summary>How a cluster's <c>HttpRequest</c> asks HTTP/2 of an <c>http</c> and an <c>https</c> destination, as HttpClient asks it (YARP's meanings).</summary>
public sealed class Http2NegotiationTests
{
    // RFC 9113 §3.2 (ALPN over TLS) and §3.3 (prior knowledge over TCP); RequestVersionOrLower asks HTTP/1.1 over TCP and offers it over TLS.
    [Theory]
    [InlineData("2.0", HttpVersionPolicy.RequestVersionExact, false, Http2Negotiation.PriorKnowledge)]
    [InlineData("2.0", HttpVersionPolicy.RequestVersionOrHigher, false, Http2Negotiation.PriorKnowledge)]
    [InlineData("2.0", HttpVersionPolicy.RequestVersionOrLower, false, Http2Negotiation.None)]
    [InlineData("2.0", HttpVersionPolicy.RequestVersionExact, true, Http2Negotiation.AlpnH2)]
    [InlineData("2.0", HttpVersionPolicy.RequestVersionOrHigher, true, Http2Negotiation.AlpnH2)]
    [InlineData("2.0", HttpVersionPolicy.RequestVersionOrLower, true, Http2Negotiation.AlpnH2OrHttp11)]
    [InlineData("1.1", HttpVersionPolicy.RequestVersionOrLower, true, Http2Negotiation.None)]
    public void Http2NegotiationWith_VersionPolicyAndScheme_Rfc9113_3(string version, HttpVersionPolicy policy, bool isTls, Http2Negotiation expected)
    {
        var cluster = TestClusters.Cluster(1) with { HttpVersion = Version.Parse(version), VersionPolicy = policy };

        Assert.Equal(expected, cluster.Http2NegotiationWith(isTls));
    }
}
