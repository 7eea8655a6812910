using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A response as the proxy sent it: its head, how its body was framed and the decoded body.</summary>
public sealed partial class RawHttpResponse
{
    public RawHttpResponse(HttpHead head, BodyFraming framing, byte[] body)
    {
        var statusLine = ParseStatusLine(head);
        Head = head;
        Version = statusLine.Groups["version"].Value;
        StatusCode = int.Parse(statusLine.Groups["code"].Value, CultureInfo.InvariantCulture);
        Framing = framing;
        Body = body;
    }

    public HttpHead Head { get; }

    public string Version { get; }

    public int StatusCode { get; }

    public BodyFraming Framing { get; }

    public byte[] Body { get; }

    public string BodyText => Encoding.Latin1.GetString(Body);

    public override string ToString() => Head.Raw + (Body.Length <= 512 ? BodyText : $"<{Body.Length} bytes>");

    /// <summary>The status code of a response head; an invalid status line is an error.</summary>
    public static int StatusCodeOf(HttpHead head) =>
        int.Parse(ParseStatusLine(head).Groups["code"].Value, CultureInfo.InvariantCulture);

    private static Match ParseStatusLine(HttpHead head)
    {
        var statusLine = StatusLine().Match(head.StartLine);
        return statusLine.Success
            ? statusLine
            : throw new InvalidDataException($"Invalid status line (RFC 9112 §4): '{head.StartLine}'.");
    }

    [GeneratedRegex(@"^(?<version>HTTP/\d\.\d) (?<code>\d{3}) [^\r\n]*$")]
    private static partial Regex StatusLine();
}
