using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using K = LLRP.Configuration.ConfigurationKeys;

namespace LLRP.Configuration;

/// <summary>
/// Loads the certificate of the <c>https</c> urls at start-up: a PKCS#12 (.pfx) file with its password, or a PEM
/// certificate with its PEM key (in <c>tls.certificateKeyPath</c> or in the same file, encrypted when a password is
/// given). Each step that can fail names its own key, so a missing file, a wrong password and a key of another
/// certificate are told apart; the password is never part of a message.
/// </summary>
internal static class ServerCertificateLoader
{
    /// <summary>What a message shows in place of the password.</summary>
    public const string HiddenPassword = "(hidden)";

    private const string PemOrPkcs12 = "a readable PKCS#12 (.pfx) file, or a PEM certificate (its key in tls.certificateKeyPath or in the same file)";

    /// <exception cref="ProxyConfigurationException">A file is missing or unreadable, the password is wrong, or the key does not match.</exception>
    public static X509Certificate2 Load(string path, string? keyPath, string? password)
    {
        var contents = Read(K.CertificatePath, path);
        var certificate = keyPath is not null || IsPem(contents)
            ? LoadPem(path, Encoding.ASCII.GetString(contents), keyPath, password)
            : LoadPkcs12(path, contents, password);
        if (!certificate.HasPrivateKey)
        {
            certificate.Dispose();
            throw new ProxyConfigurationException(K.CertificatePath, path, "a certificate with its private key (PKCS#12 with the key, or a PEM certificate with tls.certificateKeyPath)");
        }

        return certificate;
    }

    private static X509Certificate2 LoadPkcs12(string path, byte[] contents, string? password)
    {
        try
        {
            return X509CertificateLoader.LoadPkcs12(contents, password);
        }
        catch (CryptographicException e) when (IsWrongPassword(e))
        {
            throw new ProxyConfigurationException(K.CertificatePassword, HiddenPassword, $"the password of {path}");
        }
        catch (CryptographicException e)
        {
            throw new ProxyConfigurationException(K.CertificatePath, path, $"{PemOrPkcs12} ({OneLine(e)})");
        }
    }

    private static X509Certificate2 LoadPem(string path, string certificatePem, string? keyPath, string? password)
    {
        X509Certificate2 certificate;
        try
        {
            certificate = X509Certificate2.CreateFromPem(certificatePem);
        }
        catch (CryptographicException e)
        {
            throw new ProxyConfigurationException(K.CertificatePath, path, $"{PemOrPkcs12} ({OneLine(e)})");
        }

        var keyKey = keyPath is null ? K.CertificatePath : K.CertificateKeyPath;
        var keyFile = keyPath ?? path;
        var keyPem = keyPath is null ? certificatePem : Encoding.ASCII.GetString(Read(K.CertificateKeyPath, keyPath));
        using (certificate)
        {
            using var key = CreateKey(certificate, keyKey, keyFile);
            try
            {
                if (password is null)
                {
                    key.ImportFromPem(keyPem);
                }
                else
                {
                    key.ImportFromEncryptedPem(keyPem, password);
                }
            }
            catch (Exception e) when (e is CryptographicException or ArgumentException)
            {
                throw password is not null || keyPem.Contains("ENCRYPTED PRIVATE KEY", StringComparison.Ordinal)
                    ? new ProxyConfigurationException(K.CertificatePassword, password is null ? null : HiddenPassword, $"the password of the encrypted PEM key in {keyFile}")
                    : new ProxyConfigurationException(keyKey, keyFile, $"a PEM private key (PKCS#8, RSA or EC) ({OneLine(e)})");
            }

            try
            {
                return key switch
                {
                    RSA rsa => certificate.CopyWithPrivateKey(rsa),
                    ECDsa ecdsa => certificate.CopyWithPrivateKey(ecdsa),
                    _ => throw new CryptographicException("Unsupported key algorithm."),
                };
            }
            catch (Exception e) when (e is CryptographicException or ArgumentException)
            {
                throw new ProxyConfigurationException(keyKey, keyFile, $"the private key of the certificate in {path} ({OneLine(e)})");
            }
        }
    }

    /// <summary>An empty key of the certificate's public key algorithm, to import the PEM key into.</summary>
    private static AsymmetricAlgorithm CreateKey(X509Certificate2 certificate, string key, string keyFile)
    {
        if (certificate.GetRSAPublicKey() is { } rsa)
        {
            rsa.Dispose();
            return RSA.Create();
        }

        if (certificate.GetECDsaPublicKey() is { } ecdsa)
        {
            ecdsa.Dispose();
            return ECDsa.Create();
        }

        throw new ProxyConfigurationException(key, keyFile, "an RSA or ECDSA key (the certificate's public key is neither)");
    }

    private static byte[] Read(string key, string path)
    {
        try
        {
            return File.ReadAllBytes(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new ProxyConfigurationException(key, path, $"a readable file ({OneLine(e)})");
        }
    }

    private static bool IsPem(byte[] contents) => contents.AsSpan().IndexOf("-----BEGIN "u8) >= 0;

    /// <summary>PKCS#12 data whose integrity check fails with the password given (Windows' <c>ERROR_INVALID_PASSWORD</c>, which .NET reports on every platform).</summary>
    private static bool IsWrongPassword(CryptographicException e) => e.HResult == unchecked((int)0x80070056);

    private static string OneLine(Exception e) => e.Message.ReplaceLineEndings(" ").TrimEnd('.', ' ');
}
