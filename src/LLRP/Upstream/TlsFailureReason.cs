using System.Globalization;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace LLRP.Upstream;

/// <summary>Why a TLS handshake with a destination failed, in words an operator can act on.</summary>
internal static class TlsFailureReason
{
    /// <summary>Why the destination's certificate was refused for <paramref name="host"/>: each of <paramref name="errors"/>, and each problem of its chain.</summary>
    public static string Describe(SslPolicyErrors errors, X509Certificate? certificate, X509Chain? chain, string host)
    {
        var reasons = new List<string>();
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNotAvailable))
        {
            reasons.Add("no certificate: the destination sent none");
        }

        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNameMismatch))
        {
            reasons.Add($"name mismatch: the certificate is for {Names(certificate)}, not for '{host}'");
        }

        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateChainErrors))
        {
            reasons.AddRange((chain?.ChainStatus ?? []).Select(status => Chain(status, certificate, chain!)).Distinct());
        }

        return $"{(reasons.Count > 0 ? string.Join("; ", reasons) : errors.ToString())}. Fix the destination's certificate or trust its CA in the system's store; tls.downstreamInsecure=true skips the check (test origins only)";
    }

    /// <summary>
    /// Why a handshake failed before or apart from the certificate check (no protocol version or cipher in common, the
    /// connection cut): every message of the exception's chain. When the destination answered with the
    /// no_application_protocol alert (RFC 7301 §3.2: it speaks none of the ALPN protocols offered), it says so, naming
    /// <paramref name="asked"/>.
    /// </summary>
    public static string Describe(Exception exception, List<SslApplicationProtocol>? asked = null)
    {
        var messages = new List<string>();
        for (var inner = exception; inner is not null; inner = inner.InnerException)
        {
            messages.Add(inner.Message.TrimEnd('.'));
        }

        var said = string.Join(": ", messages.Distinct());
        return asked is { Count: > 0 } && NoApplicationProtocol(said)
            ? $"{said}. The destination offers none of the protocols asked: {string.Join(", ", asked)} (ALPN, its no_application_protocol alert)"
            : $"{said}. Check that the destination speaks TLS on this port, with a TLS version and cipher in common";
    }

    /// <summary>OpenSSL's words for alert 120, no_application_protocol (RFC 7301 §3.2).</summary>
    private static bool NoApplicationProtocol(string messages)
        => messages.Contains("no application protocol", StringComparison.OrdinalIgnoreCase) || messages.Contains("alert number 120", StringComparison.Ordinal);

    private static string Chain(X509ChainStatus status, X509Certificate? certificate, X509Chain chain) => status.Status switch
    {
        X509ChainStatusFlags.UntrustedRoot => $"untrusted root: the chain ends in '{Root(chain, certificate)}', which this machine does not trust (a self-signed certificate, or a private CA missing from the system's trust store)",
        X509ChainStatusFlags.PartialChain => "incomplete chain: an intermediate certificate is missing (the destination should send it with its own) or the root is unknown",
        X509ChainStatusFlags.NotTimeValid => certificate is X509Certificate2 leaf
            ? string.Create(CultureInfo.InvariantCulture, $"expired or not yet valid: valid from {leaf.NotBefore.ToUniversalTime():yyyy-MM-dd HH:mm:ss}Z to {leaf.NotAfter.ToUniversalTime():yyyy-MM-dd HH:mm:ss}Z")
            : "expired or not yet valid",
        X509ChainStatusFlags.Revoked => "revoked: the certificate's issuer has revoked it",
        _ => $"{status.Status}: {status.StatusInformation.Trim()}",
    };

    private static string Root(X509Chain chain, X509Certificate? certificate)
        => chain.ChainElements.Count > 0 ? chain.ChainElements[^1].Certificate.Subject : certificate?.Subject ?? "(none)";

    private static string Names(X509Certificate? certificate)
    {
        if (certificate is not X509Certificate2 leaf)
        {
            return "(no certificate)";
        }

        var alternative = leaf.Extensions.OfType<X509SubjectAlternativeNameExtension>()
            .SelectMany(names => names.EnumerateDnsNames().Concat(names.EnumerateIPAddresses().Select(address => address.ToString())))
            .ToList();
        return alternative.Count > 0 ? $"'{string.Join("', '", alternative)}' (subject {leaf.Subject})" : $"subject {leaf.Subject}";
    }
}
