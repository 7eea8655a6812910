using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace LLRP.Testing;

/// <summary>
/// A self-signed ECDSA P-256 certificate for <c>localhost</c> and <c>127.0.0.1</c>, made for one test and written to a
/// temporary folder in every form the proxy and the bundled origin read: a PKCS#12 file, a PEM certificate, its PEM key
/// (plain and encrypted) and both in one PEM file. The folder is deleted on dispose.
/// </summary>
public sealed class TestCertificate : IDisposable
{
    /// <summary>The password of <see cref="PfxPath"/> and <see cref="EncryptedKeyPath"/>.</summary>
    public const string Password = "correct horse";

    private readonly string _folder;

    private TestCertificate(X509Certificate2 certificate, ECDsa key, string folder)
    {
        Certificate = certificate;
        _folder = folder;
        PfxPath = Path.Combine(folder, "server.pfx");
        CertificatePemPath = Path.Combine(folder, "server.crt");
        KeyPath = Path.Combine(folder, "server.key");
        EncryptedKeyPath = Path.Combine(folder, "server.encrypted.key");
        CombinedPemPath = Path.Combine(folder, "server.pem");
        var certificatePem = certificate.ExportCertificatePem();
        var keyPem = key.ExportPkcs8PrivateKeyPem();
        File.WriteAllBytes(PfxPath, certificate.Export(X509ContentType.Pkcs12, Password));
        File.WriteAllText(CertificatePemPath, certificatePem);
        File.WriteAllText(KeyPath, keyPem);
        File.WriteAllText(EncryptedKeyPath, key.ExportEncryptedPkcs8PrivateKeyPem(Password, new PbeParameters(PbeEncryptionAlgorithm.Aes128Cbc, HashAlgorithmName.SHA256, 1000)));
        File.WriteAllText(CombinedPemPath, certificatePem + "\n" + keyPem);
    }

    public X509Certificate2 Certificate { get; }

    public string PfxPath { get; }

    public string CertificatePemPath { get; }

    public string KeyPath { get; }

    public string EncryptedKeyPath { get; }

    public string CombinedPemPath { get; }

    /// <summary>A path in the certificate's folder where no file is.</summary>
    public string MissingPath => Path.Combine(_folder, "missing.pfx");

    /// <summary>Writes <paramref name="contents"/> to a new file in the certificate's folder, deleted with it.</summary>
    public string WriteFile(string name, string contents)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, contents);
        return path;
    }

    public static TestCertificate Create(string commonName = "localhost")
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest($"CN={commonName}", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, false));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, false));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false));
        var now = DateTimeOffset.UtcNow;
        var certificate = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(1));
        var folder = Directory.CreateTempSubdirectory("llrp-tls-").FullName;
        return new TestCertificate(certificate, key, folder);
    }

    public void Dispose()
    {
        Certificate.Dispose();
        Directory.Delete(_folder, recursive: true);
    }
}
