using System.Text;

namespace LLRP.Http1;

/// <summary>
/// The protocols the proxy tunnels after <c>101 Switching Protocols</c> (RFC 9110 §7.8, §15.2.2), and the rules that
/// decide when an exchange becomes a tunnel. A request is one to tunnel when it is HTTP/1.1, has no body, carries a
/// <c>Connection: upgrade</c> option and <c>Upgrade</c> fields whose every protocol is listed here (by name, any
/// version); otherwise its <c>Upgrade</c> fields are dropped as hop-by-hop and it is an ordinary request. <c>h2c</c> is
/// never listed: it would carry requests past the proxy's own parsing (RFC 9113 §3.1).
/// </summary>
internal sealed class UpgradeProtocols
{
    private readonly byte[][] _names;

    /// <param name="names">Protocol names (tokens), matched case-insensitively.</param>
    public UpgradeProtocols(IEnumerable<string> names) => _names = [.. names.Select(Encoding.ASCII.GetBytes)];

    /// <summary>No protocol at all: every <c>Upgrade</c> is dropped.</summary>
    public bool IsEmpty => _names.Length == 0;

    /// <summary>The request asks to switch to protocols that are all tunnelled here, and nothing stands in the way.</summary>
    public bool Accepts(RequestHead request)
    {
        if (IsEmpty || !request.ConnectionUpgrade || request.IsHttp10
            || request.Framing == BodyFraming.Chunked || (request.Framing == BodyFraming.ContentLength && request.ContentLength != 0))
        {
            return false;
        }

        return ListsOnlyKnown(request);
    }

    /// <summary>
    /// The <c>101</c> answers an upgrade properly: it says <c>Connection: upgrade</c> and names, in <c>Upgrade</c>, only
    /// protocols tunnelled here (RFC 9110 §7.8: the server sends the protocol it switches to).
    /// </summary>
    public bool AcceptsSwitch(ResponseHead response)
        => response.StatusCode == 101 && response.ConnectionUpgrade && ListsOnlyKnown(response);

    /// <summary>At least one protocol is listed in the head's <c>Upgrade</c> fields, and every one of them is known.</summary>
    private bool ListsOnlyKnown(MessageHead head)
    {
        var source = head.Source.Span;
        var listed = 0;
        foreach (ref readonly var field in head.Fields)
        {
            if (field.Kind != FieldKind.Upgrade)
            {
                continue;
            }

            var value = field.Value(source);
            foreach (var range in value.Split((byte)','))
            {
                var protocol = HttpCharacters.TrimWhitespace(value[range]);
                if (protocol.IsEmpty)
                {
                    continue;
                }

                if (!IsKnown(protocol))
                {
                    return false;
                }

                listed++;
            }
        }

        return listed > 0;
    }

    /// <summary>protocol = protocol-name ["/" protocol-version] (RFC 9110 §7.8); both parts tokens, the name listed.</summary>
    private bool IsKnown(ReadOnlySpan<byte> protocol)
    {
        var slash = protocol.IndexOf((byte)'/');
        var name = slash < 0 ? protocol : protocol[..slash];
        if (name.IsEmpty || HttpCharacters.IndexOfNonToken(name) >= 0
            || (slash >= 0 && (slash == protocol.Length - 1 || HttpCharacters.IndexOfNonToken(protocol[(slash + 1)..]) >= 0)))
        {
            return false;
        }

        foreach (var known in _names)
        {
            if (Ascii.EqualsIgnoreCase(name, known))
            {
                return true;
            }
        }

        return false;
    }
}
