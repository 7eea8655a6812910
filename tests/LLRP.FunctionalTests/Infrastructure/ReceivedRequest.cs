using System.Text;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A request as a scripted origin received it from the proxy.</summary>
public sealed class ReceivedRequest
{
    public ReceivedRequest(HttpHead head, BodyFraming framing, byte[] body)
    {
        var parts = head.StartLine.Split(' ');
        if (parts.Length != 3)
        {
            throw new InvalidDataException($"Invalid request line (RFC 9112 §3): '{head.StartLine}'.");
        }

        Head = head;
        Method = parts[0];
        Target = parts[1];
        Framing = framing;
        Body = body;
    }

    public HttpHead Head { get; }

    public string Method { get; }

    public string Target { get; }

    public BodyFraming Framing { get; }

    public byte[] Body { get; }

    public string BodyText => Encoding.Latin1.GetString(Body);

    public override string ToString() => Head.Raw + BodyText;
}
