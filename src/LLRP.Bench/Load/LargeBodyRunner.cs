using System.Globalization;
using System.Security.Cryptography;
using LLRP.Bench.Processes;
using LLRP.Bench.Results;

namespace LLRP.Bench.Load;

/// <summary>
/// Moves 1 GiB through a contender with curl: a download of <c>/?s=1073741824</c> to /dev/null, and an upload
/// of a sparse 1 GiB file to <c>/sink</c> (streamed with <c>-T</c>, no <c>Expect: 100-continue</c>), whose answer
/// states how many bytes the origin received and their SHA-256, checked against the file's.
/// </summary>
/// <param name="uploadFile">Where the 1 GiB upload file is kept between runs.</param>
/// <param name="cpus">The <c>taskset -c</c> list for curl, or null when unpinned.</param>
public sealed class LargeBodyRunner(string uploadFile, string? cpus)
{
    public const long Size = 1L << 30;

    private static readonly TimeSpan _timeout = TimeSpan.FromMinutes(2);

    private string? _uploadHash;

    /// <summary>Bytes moved, seconds taken, and an error (null when a 200 carried exactly 1 GiB).</summary>
    public async Task<(long Bytes, double Seconds, string? Error)> RunAsync(
        int port, TransferDirection direction, CancellationToken cancellationToken)
    {
        var result = direction == TransferDirection.Download
            ? await Command.RunAsync(
                "curl",
                ["-sS", "--max-time", "120", "-o", "/dev/null", "-w", "%{http_code} %{size_download} %{time_total}", $"http://127.0.0.1:{port}/?s={Size}"],
                cpus,
                _timeout,
                cancellationToken)
            : await Command.RunAsync(
                "curl",
                [
                    "-sS", "--max-time", "120", "-X", "POST", "-T", EnsureUploadFile(),
                    "-H", "Expect:", "-H", "Content-Type: application/octet-stream",
                    "-w", "\n%{http_code} %{size_upload} %{time_total}", $"http://127.0.0.1:{port}/sink",
                ],
                cpus,
                _timeout,
                cancellationToken);

        var lines = result.StandardOutput.Split('\n');
        var stats = lines[^1].Split(' ');
        if (stats.Length != 3
            || !long.TryParse(stats[1], NumberStyles.None, CultureInfo.InvariantCulture, out var bytes)
            || !double.TryParse(stats[2], NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds))
        {
            return (0, 0, $"curl exited with code {result.ExitCode}: {result.StandardError.Trim()}");
        }

        var error = result.ExitCode != 0 ? $"curl exited with code {result.ExitCode}: {result.StandardError.Trim()}"
            : stats[0] != "200" ? $"status {stats[0]}"
            : bytes != Size ? $"{bytes} bytes moved"
            : direction == TransferDirection.Upload && lines[0] != $"{Size.ToString(CultureInfo.InvariantCulture)} {UploadHash()}"
                ? $"origin received '{lines[0]}'"
            : null;
        return (bytes, seconds, error);
    }

    /// <summary>The upload file's SHA-256 in lowercase hex, as <c>/sink</c> states it; computed once.</summary>
    private string UploadHash()
    {
        if (_uploadHash is null)
        {
            using var stream = File.OpenRead(EnsureUploadFile());
            _uploadHash = Convert.ToHexStringLower(SHA256.HashData(stream));
        }

        return _uploadHash;
    }

    private string EnsureUploadFile()
    {
        if (new FileInfo(uploadFile) is not { Exists: true, Length: Size })
        {
            using var stream = new FileStream(uploadFile, FileMode.Create, FileAccess.Write);
            stream.SetLength(Size);
        }

        return uploadFile;
    }
}
