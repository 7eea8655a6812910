using System.Net.Security;
using System.Runtime.CompilerServices;
using System.Security.Cryptography.X509Certificates;
using LLRP.Diagnostics;

namespace LLRP.Upstream;

/// <summary>
/// The system's check of a destination's certificate (trust store, validity, name), which logs why it refuses one
/// (<see cref="TlsFailureReason"/>): without it, the handshake fails with no reason given.
/// </summary>
internal sealed class DestinationCertificateCheck(FailureLog failures)
{
    private readonly ConditionalWeakTable<object, object> _refused = new();

    public bool Validate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        if (errors == SslPolicyErrors.None)
        {
            return true;
        }

        var host = sender is SslStream stream ? stream.TargetHostName : "(unknown)";
        failures.TlsHandshakeFailed(host, TlsFailureReason.Describe(errors, certificate, chain, host));
        _refused.AddOrUpdate(sender, sender);
        return false;
    }

    /// <summary>True when <paramref name="stream"/>'s handshake failed because <see cref="Validate"/> refused the certificate (and said why).</summary>
    public bool Refused(SslStream stream) => _refused.TryGetValue(stream, out _);
}
