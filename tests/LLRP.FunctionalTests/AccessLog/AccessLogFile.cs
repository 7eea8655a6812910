using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.AccessLog;

/// <summary>An access log file in a directory of its own, read while the proxy appends to it.</summary>
public sealed class AccessLogFile : IDisposable
{
    private readonly ContentRoot _directory = ContentRoot.Empty();

    public string Path => System.IO.Path.Combine(_directory.Path, "access.log");

    /// <summary>The proxy setting that writes the access log here.</summary>
    public string Setting => $"accessLog={Path}";

    /// <summary>The complete lines of the file at <paramref name="path"/> (this one by default); none while it does not exist.</summary>
    public string[] Lines(string? path = null)
    {
        path ??= Path;
        if (!File.Exists(path))
        {
            return [];
        }

        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        var text = new StreamReader(stream).ReadToEnd();
        return text[..(text.LastIndexOf('\n') + 1)].Split('\n', StringSplitOptions.RemoveEmptyEntries);
    }

    /// <summary>Waits until the file at <paramref name="path"/> (this one by default) has <paramref name="count"/> lines, and returns them.</summary>
    public async Task<string[]> WaitForLinesAsync(int count, string? path = null)
    {
        await Deadline.UntilAsync(() => Lines(path).Length >= count, $"{count} access log lines");
        var lines = Lines(path);
        Assert.Equal(count, lines.Length);
        return lines;
    }

    public void Dispose() => _directory.Dispose();
}
