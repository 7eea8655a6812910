using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using LLRP.Upstream;

namespace LLRP.Tests.Upstream;

public sealed class TlsFailureReasonTests
{
    [Fact]
    public void Describe_NameMismatch_NamesTheCertificatesNamesAndTheHost()
    {
        using var certificate = SelfSigned("other.test", DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));

        var reason = TlsFailureReason.Describe(SslPolicyErrors.RemoteCertificateNameMismatch, certificate, null, "backend.test");

        Assert.StartsWith("name mismatch: the certificate is for 'other.test' (subject CN=other.test), not for 'backend.test'.", reason, StringComparison.Ordinal);
        Assert.Contains("tls.downstreamInsecure=true", reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_ExpiredSelfSigned_SaysExpiredWithItsDatesAndUntrustedRoot()
    {
        using var certificate = SelfSigned("backend.test", new DateTimeOffset(2020, 1, 1, 0, 0, 0, TimeSpan.Zero), new DateTimeOffset(2021, 1, 1, 0, 0, 0, TimeSpan.Zero));
        using var chain = new X509Chain();
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        Assert.False(chain.Build(certificate));

        var reason = TlsFailureReason.Describe(SslPolicyErrors.RemoteCertificateChainErrors, certificate, chain, "backend.test");

        Assert.Contains("expired or not yet valid: valid from 2020-01-01 00:00:00Z to 2021-01-01 00:00:00Z", reason, StringComparison.Ordinal);
        Assert.Contains("untrusted root: the chain ends in 'CN=backend.test'", reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_HandshakeException_EveryMessageOfItsChain()
    {
        var exception = new AuthenticationException("Authentication failed.", new IOException("SSL routines::unsupported protocol"));

        Assert.StartsWith("Authentication failed: SSL routines::unsupported protocol. Check that the destination speaks TLS", TlsFailureReason.Describe(exception), StringComparison.Ordinal);
    }

    // RFC 7301 §3.2: a server that speaks none of the protocols offered answers with the no_application_protocol alert.
    [Fact]
    public void Describe_NoApplicationProtocolAlert_NamesTheProtocolsAsked_Rfc7301_3_2()
    {
        var exception = new AuthenticationException("Authentication failed.", new IOException("SSL routines::tlsv1 alert no application protocol"));

        var reason = TlsFailureReason.Describe(exception, [SslApplicationProtocol.Http2]);

        Assert.Contains("The destination offers none of the protocols asked: h2", reason, StringComparison.Ordinal);
        Assert.DoesNotContain("cipher", reason, StringComparison.Ordinal);
    }

    private static X509Certificate2 SelfSigned(string name, DateTimeOffset notBefore, DateTimeOffset notAfter)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest($"CN={name}", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName(name);
        request.CertificateExtensions.Add(names.Build());
        return request.CreateSelfSigned(notBefore, notAfter);
    }
}
