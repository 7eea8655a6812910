using System.Text;

namespace LLRP.Http1;

/// <summary>
/// The protocols the proxy tunnels after <c>101 Switching Protocols</c> (RFC 9110 §7.8, §15.2.2), and the rules that
/// decide when an exchange becomes a tunnel. A request is one to tunnel when it is HTTP/1.1, has no body, carries a
/// <c>Connection: upgrade</c> option and <c>Upgrade</c> fields whose every protocol is listed here (by name, any
/// version); otherwise its <c>Upgrade</c> fields are dropped as hop-by-hop and it is an ordinary request. <c>h2c</c> is
/// never listed: it would carry requests past the proxy's own parsing (RFC 9113 §3.1). The protocols a request asks for
/// are a mask over the list (bit <c>i</c> for its <c>i</c>-th name), so a <c>101</c> can be held to them.
/// </summary>
internal sealed class UpgradeProtocols
{
    /// <summary>Most names the list may hold: one bit each in a request's mask.</summary>
    public const int MaxNames = 64;

    private readonly byte[][] _names;

    /// <param name="names">Protocol names (tokens), matched case-insensitively; at most <see cref="MaxNames"/>.</param>
    public UpgradeProtocols(IEnumerable<string> names)
    {
        _names = [.. names.Select(Encoding.ASCII.GetBytes)];
        ArgumentOutOfRangeException.ThrowIfGreaterThan(_names.Length, MaxNames, nameof(names));
    }

    /// <summary>
    /// The protocols the request asks to switch to, as a mask, when all are tunnelled here and nothing stands in the way;
    /// zero when the request is no upgrade to tunnel.
    /// </summary>
    public ulong Accepts(RequestHead request)
    {
        if (_names.Length == 0 || !request.ConnectionUpgrade || request.IsHttp10
            || request.Framing == BodyFraming.Chunked || (request.Framing == BodyFraming.ContentLength && request.ContentLength != 0))
        {
            return 0;
        }

        return Listed(request);
    }

    /// <summary>
    /// The <c>101</c> answers the upgrade request that asked for <paramref name="requested"/> properly: it says
    /// <c>Connection: upgrade</c> and names in <c>Upgrade</c> only protocols the request asked for (RFC 9110 §7.8: a
    /// server must not switch to a protocol the client did not indicate). False for a request that asked for none.
    /// </summary>
    public bool AcceptsSwitch(ResponseHead response, ulong requested)
        => requested != 0 && response.StatusCode == 101 && response.ConnectionUpgrade && Listed(response) is var named and not 0
            && (named & ~requested) == 0;

    /// <summary>The mask of the protocols the head's <c>Upgrade</c> fields name; zero when they name none, or one not listed here.</summary>
    private ulong Listed(MessageHead head)
    {
        var source = head.Source.Span;
        ulong listed = 0;
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

                var index = IndexOf(protocol);
                if (index < 0)
                {
                    return 0;
                }

                listed |= 1UL << index;
            }
        }

        return listed;
    }

    /// <summary>protocol = protocol-name ["/" protocol-version] (RFC 9110 §7.8): the index of its name, both parts tokens; -1 when unknown.</summary>
    private int IndexOf(ReadOnlySpan<byte> protocol)
    {
        var slash = protocol.IndexOf((byte)'/');
        var name = slash < 0 ? protocol : protocol[..slash];
        if (name.IsEmpty || HttpCharacters.IndexOfNonToken(name) >= 0
            || (slash >= 0 && (slash == protocol.Length - 1 || HttpCharacters.IndexOfNonToken(protocol[(slash + 1)..]) >= 0)))
        {
            return -1;
        }

        for (var i = 0; i < _names.Length; i++)
        {
            if (Ascii.EqualsIgnoreCase(name, _names[i]))
            {
                return i;
            }
        }

        return -1;
    }
}
