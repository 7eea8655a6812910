using System.Globalization;
using System.Text.Json;

namespace LLRP.Downstream;

/// <summary>
/// One line for a settings file (appsettings.json) that .NET's configuration could not load: the file, the line and
/// position (1-based) where the JSON breaks, and why. Shared by the bundled origin and the proxy.
/// </summary>
public static class SettingsFileError
{
    public static string Describe(InvalidDataException error)
    {
        var file = error.Message.TrimEnd('.');
        var cause = error.InnerException;
        while (cause?.InnerException is { } inner && cause is not JsonException)
        {
            cause = inner;
        }

        return cause switch
        {
            JsonException { LineNumber: { } line, BytePositionInLine: { } position } json => string.Create(
                CultureInfo.InvariantCulture,
                $"{file}: line {line + 1}, position {position + 1}: {Reason(json.Message)}"),
            null => file,
            _ => $"{file}: {cause.Message}",
        };
    }

    /// <summary>The parser's message without the position it appends (<c>… LineNumber: 1 | BytePositionInLine: 2.</c>), given apart.</summary>
    private static string Reason(string message)
    {
        var position = message.IndexOf(" LineNumber:", StringComparison.Ordinal);
        return position < 0 ? message : message[..position];
    }
}
