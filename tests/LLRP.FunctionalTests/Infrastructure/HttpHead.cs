using System.Text;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>A message head as received: the start line and the field lines in order.</summary>
public sealed class HttpHead
{
    private HttpHead(string startLine, IReadOnlyList<HttpField> fields, string raw)
    {
        StartLine = startLine;
        Fields = fields;
        Raw = raw;
    }

    public string StartLine { get; }

    public IReadOnlyList<HttpField> Fields { get; }

    /// <summary>The head exactly as it was on the wire, up to and including the empty line.</summary>
    public string Raw { get; }

    /// <summary>Reads a head; null when the peer closed before sending its first byte.</summary>
    public static async Task<HttpHead?> ReadAsync(WireReader reader)
    {
        var startLine = await reader.ReadLineOrEndAsync();
        if (startLine is null)
        {
            return null;
        }

        var (fields, lines) = await reader.ReadFieldSectionAsync();
        var raw = new StringBuilder(startLine).Append("\r\n");
        foreach (var line in lines)
        {
            raw.Append(line).Append("\r\n");
        }

        return new HttpHead(startLine, fields, raw.Append("\r\n").ToString());
    }

    /// <summary>The values of every line of field <paramref name="name"/>, in order.</summary>
    public IReadOnlyList<string> GetAll(string name) =>
        Fields.Where(field => field.Name.Equals(name, StringComparison.OrdinalIgnoreCase)).Select(field => field.Value).ToArray();

    /// <summary>The value of field <paramref name="name"/>; null when absent, an error when on several lines.</summary>
    public string? Get(string name)
    {
        var values = GetAll(name);
        return values.Count switch
        {
            0 => null,
            1 => values[0],
            _ => throw new InvalidDataException($"'{name}' is on {values.Count} lines in:\n{Raw}"),
        };
    }

    public bool Contains(string name) => GetAll(name).Count > 0;

    /// <summary>The lower-cased members of list field <paramref name="name"/> over all its lines (RFC 9110 §5.6.1).</summary>
    public IReadOnlyList<string> Tokens(string name) =>
        GetAll(name)
            .SelectMany(value => value.Split(','))
            .Select(token => token.Trim(' ', '\t').ToLowerInvariant())
            .Where(token => token.Length > 0)
            .ToArray();

    public override string ToString() => Raw;
}
