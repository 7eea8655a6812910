using System.Text;
using LLRP.Configuration;
using LLRP.Hosting;
using LLRP.Testing;

namespace LLRP.Tests.Configuration;

/// <summary>
/// The TLS keys: the certificate of the https urls, loaded and checked at start-up, each failure naming its key (the
/// password never shown); https downstreams (RFC 9110 §4.2.2) and the opt-out of their certificate validation.
/// </summary>
public sealed class TlsOptionsReaderTests : IDisposable
{
    private readonly TestCertificate _certificate = TestCertificate.Create();

    public void Dispose() => _certificate.Dispose();

    [Fact]
    public void Read_NoTlsKeys_NoCertificateAndValidationOn()
    {
        var options = ConfiguredOptions.Read();

        Assert.Null(options.ServerCertificate);
        Assert.Null(options.CertificatePath);
        Assert.Null(options.CertificateKeyPath);
        Assert.False(options.HasCertificatePassword);
        Assert.False(options.DownstreamInsecure);
    }

    [Fact]
    public void Read_Pkcs12WithPassword_Loaded()
    {
        var options = ConfiguredOptions.Read(
            ("urls", "https://127.0.0.1:8443"),
            ("tls.certificatePath", _certificate.PfxPath),
            ("tls.certificatePassword", TestCertificate.Password));

        AssertLoaded(options);
        Assert.True(options.HasCertificatePassword);
    }

    [Fact]
    public void Read_PemCertificateAndKey_Loaded()
        => AssertLoaded(ConfiguredOptions.Read(
            ("urls", "https://127.0.0.1:8443"),
            ("tls.certificatePath", _certificate.CertificatePemPath),
            ("tls.certificateKeyPath", _certificate.KeyPath)));

    [Fact]
    public void Read_PemWithKeyInTheSameFile_Loaded()
        => AssertLoaded(ConfiguredOptions.Read(("urls", "https://127.0.0.1:8443"), ("tls.certificatePath", _certificate.CombinedPemPath)));

    [Fact]
    public void Read_EncryptedPemKeyWithPassword_Loaded()
        => AssertLoaded(ConfiguredOptions.Read(
            ("urls", "https://127.0.0.1:8443"),
            ("tls.certificatePath", _certificate.CertificatePemPath),
            ("tls.certificateKeyPath", _certificate.EncryptedKeyPath),
            ("tls.certificatePassword", TestCertificate.Password)));

    [Theory]
    [InlineData("https://127.0.0.1:8443")]
    [InlineData("http://127.0.0.1:8080;HTTPS://localhost:8443")]
    public void Read_HttpsUrlWithoutCertificate_ThrowsNamingCertificatePath(string urls)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("urls", urls)));

        Assert.Equal("tls.certificatePath", e.Key);
        Assert.Contains("https://", e.Message, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain('\n', e.Message);
    }

    [Fact]
    public void Read_MissingCertificateFile_ThrowsNamingKeyAndValue()
        => AssertFails("tls.certificatePath", _certificate.MissingPath, ("tls.certificatePath", _certificate.MissingPath));

    [Fact]
    public void Read_NotACertificate_ThrowsNamingKeyAndValue()
    {
        var path = _certificate.WriteFile("garbage.pfx", "not a certificate");

        AssertFails("tls.certificatePath", path, ("tls.certificatePath", path));
    }

    [Fact]
    public void Read_MissingKeyFile_ThrowsNamingKeyPath()
        => AssertFails(
            "tls.certificateKeyPath",
            _certificate.MissingPath,
            ("tls.certificatePath", _certificate.CertificatePemPath),
            ("tls.certificateKeyPath", _certificate.MissingPath));

    [Fact]
    public void Read_PemCertificateWithoutKey_ThrowsNamingCertificatePath()
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("tls.certificatePath", _certificate.CertificatePemPath)));

        Assert.Equal("tls.certificatePath", e.Key);
    }

    [Fact]
    public void Read_KeyWithoutCertificate_ThrowsNamingCertificatePath()
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(("tls.certificateKeyPath", _certificate.KeyPath)));

        Assert.Equal("tls.certificatePath", e.Key);
    }

    [Fact]
    public void Read_WrongPkcs12Password_ThrowsNamingPasswordWithoutShowingIt()
        => AssertWrongPassword(("tls.certificatePath", _certificate.PfxPath), ("tls.certificatePassword", "wrong horse"));

    [Fact]
    public void Read_WrongPemKeyPassword_ThrowsNamingPasswordWithoutShowingIt()
        => AssertWrongPassword(
            ("tls.certificatePath", _certificate.CertificatePemPath),
            ("tls.certificateKeyPath", _certificate.EncryptedKeyPath),
            ("tls.certificatePassword", "wrong horse"));

    [Fact]
    public void Read_EncryptedPemKeyWithoutPassword_ThrowsNamingPassword()
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(
            ("tls.certificatePath", _certificate.CertificatePemPath),
            ("tls.certificateKeyPath", _certificate.EncryptedKeyPath)));

        Assert.Equal("tls.certificatePassword", e.Key);
    }

    [Fact]
    public void Read_KeyOfAnotherCertificate_ThrowsNamingKeyPath()
    {
        using var other = TestCertificate.Create("other");

        AssertFails(
            "tls.certificateKeyPath",
            other.KeyPath,
            ("tls.certificatePath", _certificate.CertificatePemPath),
            ("tls.certificateKeyPath", other.KeyPath));
    }

    [Fact]
    public void Build_HttpsUrlWithoutCertificate_FailsBeforeListening()
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ProxyHost.Build(["--urls=https://127.0.0.1:0", "--downstream=http://127.0.0.1:1"]));

        Assert.Equal("tls.certificatePath", e.Key);
    }

    // RFC 9110 §4.2.2: an https URI's default port is 443; the Host field then carries no port (§7.2).
    [Theory]
    [InlineData("https://backend/", 443, "backend")]
    [InlineData("https://backend:443/", 443, "backend")]
    [InlineData("https://backend:8443/api", 8443, "backend:8443")]
    [InlineData("HTTPS://127.0.0.1:9443", 9443, "127.0.0.1:9443")]
    public void Read_HttpsDownstream_TlsWithDefaultPort443(string value, int port, string authority)
    {
        var downstream = Assert.Single(ConfiguredOptions.Read(("downstream", value)).Destinations).Endpoint;

        Assert.True(downstream.IsTls);
        Assert.Equal(port, downstream.Port);
        Assert.Equal(authority, Encoding.ASCII.GetString(downstream.Authority));
    }

    [Fact]
    public void Read_HttpDownstream_NotTls()
        => Assert.False(Assert.Single(ConfiguredOptions.Read(("downstream", "http://backend/")).Destinations).Endpoint.IsTls);

    [Theory]
    [InlineData("true", true)]
    [InlineData("1", true)]
    [InlineData("false", false)]
    public void Read_DownstreamInsecure(string value, bool insecure)
        => Assert.Equal(insecure, ConfiguredOptions.Read(("tls.downstreamInsecure", value)).DownstreamInsecure);

    [Fact]
    public void Read_DownstreamInsecureInvalid_ThrowsNamingKeyAndValue()
        => AssertFails("tls.downstreamInsecure", "perhaps", ("tls.downstreamInsecure", "perhaps"));

    /// <summary>SocketsHttpHandler takes the Host field for SNI and the certificate check: with preserveHost the client would choose them.</summary>
    [Theory]
    [InlineData("httpclient")]
    [InlineData("httpclient-httpcontext")]
    [InlineData("yarp")]
    public void Read_PreserveHostWithHttpsDownstreamOverHttpClient_Refused(string mode)
        => AssertFails("preserveHost", "true", ("downstream", "https://backend/"), ("mode", mode), ("preserveHost", "true"));

    [Fact]
    public void Read_PreserveHostWithHttpsDownstreamInRawMode_Accepted()
        => Assert.True(ConfiguredOptions.Read(("downstream", "https://backend/"), ("mode", "raw"), ("preserveHost", "true")).PreserveHost);

    private void AssertLoaded(ProxyOptions options)
    {
        var loaded = Assert.IsType<System.Security.Cryptography.X509Certificates.X509Certificate2>(options.ServerCertificate);
        Assert.True(loaded.HasPrivateKey);
        Assert.Equal(_certificate.Certificate.Thumbprint, loaded.Thumbprint);
    }

    private static void AssertFails(string key, string value, params (string Key, string Value)[] settings)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(settings));

        Assert.Equal(key, e.Key);
        Assert.Contains($"'{key}' = '{value}'", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
    }

    private static void AssertWrongPassword(params (string Key, string Value)[] settings)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => ConfiguredOptions.Read(settings));

        Assert.Equal("tls.certificatePassword", e.Key);
        Assert.DoesNotContain("wrong horse", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(TestCertificate.Password, e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
    }
}
