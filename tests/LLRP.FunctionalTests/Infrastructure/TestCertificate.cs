using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// A self-signed certificate for localhost and 127.0.0.1 in a PKCS#12 file, made once per test run (and deleted when it
/// ends), for origins that listen on https.
/// </summary>
public static class TestCertificate
{
    public const string Password = "llrp-tests";

    private static readonly Lazy<string> _path = new(Create);

    /// <summary>The PKCS#12 file, protected by <see cref="Password"/>.</summary>
    public static string Path => _path.Value;

    /// <summary>The arguments that give Kestrel this certificate for its https:// urls.</summary>
    public static string[] KestrelArguments => [$"--Kestrel:Certificates:Default:Path={Path}", $"--Kestrel:Certificates:Default:Password={Password}"];

    private static string Create()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
        var path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"llrp-tests-{Environment.ProcessId}.pfx");
        File.WriteAllBytes(path, certificate.Export(X509ContentType.Pfx, Password));
        AppDomain.CurrentDomain.ProcessExit += (_, _) => File.Delete(path);
        return path;
    }
}
