using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// What every request a proxy forwards must look like, checked independently of the proxy's parser. The strict
/// <see cref="WireReader"/> and <see cref="MessageFraming"/> already refuse bare LF, obs-fold, malformed field lines and
/// Transfer-Encoding with Content-Length; these are the rules left over.
/// </summary>
public static class ForwardedRequestRules
{
    /// <summary>The rules <paramref name="request"/> breaks; empty when it is canonical.</summary>
    public static IReadOnlyList<string> Check(ReceivedRequest request)
    {
        var problems = new List<string>();
        var version = request.Head.StartLine.Split(' ')[^1];
        if (request.Method.Length == 0 || !request.Method.All(IsTokenChar))
        {
            problems.Add($"method '{request.Method}' is not a token (RFC 9110 §9.1)");
        }

        if (!request.Target.StartsWith('/') || request.Target.Any(c => c is <= ' ' or >= (char)0x7F))
        {
            problems.Add($"target '{request.Target}' is not origin-form of visible ASCII (RFC 9112 §3.2.1)");
        }

        if (version != "HTTP/1.1")
        {
            problems.Add($"version '{version}' is not HTTP/1.1");
        }

        if (request.Head.GetAll("Host").Count != 1)
        {
            problems.Add("not exactly one Host (RFC 9112 §3.2)");
        }

        foreach (var field in request.Head.Fields)
        {
            if (!field.Name.All(IsTokenChar))
            {
                problems.Add($"field name '{field.Name}' is not a token (RFC 9110 §5.1)");
            }

            if (field.Value.Any(c => c is < ' ' and not '\t' or (char)0x7F))
            {
                problems.Add($"field '{field.Name}' has a control character in its value (RFC 9110 §5.5)");
            }
        }

        foreach (var hopByHop in new[] { "Keep-Alive", "Proxy-Connection", "Upgrade" })
        {
            if (request.Head.Contains(hopByHop))
            {
                problems.Add($"hop-by-hop field '{hopByHop}' forwarded (RFC 9110 §7.6.1)");
            }
        }

        if (request.Head.Tokens("Connection").Except(["close", "keep-alive", "te"]).Any()
            || request.Head.Tokens("TE").Except(["trailers"]).Any())
        {
            problems.Add("a client's connection options forwarded (RFC 9110 §7.6.1)");
        }

        return problems;
    }

    private static bool IsTokenChar(char c) =>
        char.IsAsciiLetterOrDigit(c) || "!#$%&'*+-.^_`|~".Contains(c);
}
