using System.Globalization;
using System.Text;

namespace LLRP.FaultRun;

/// <summary>Buffered reads of HTTP/1.1 framing from a stream: lines, heads, and bodies framed by length, chunks or close.</summary>
internal sealed class WireReader(Stream stream)
{
    private readonly byte[] _buffer = new byte[16 * 1024];
    private int _start;
    private int _end;

    /// <summary>Reads a head up to its empty line: the start line, then the fields with lower-case names; null at a clean end before any byte.</summary>
    public async Task<(string StartLine, Dictionary<string, string> Fields)?> ReadHeadAsync(CancellationToken token)
    {
        var startLine = await ReadLineAsync(token);
        if (startLine is null)
        {
            return null;
        }

        var fields = new Dictionary<string, string>(StringComparer.Ordinal);
        while (await ReadLineAsync(token) is { Length: > 0 } line)
        {
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            if (colon <= 0)
            {
                throw new InvalidDataException($"Malformed field line: {line}");
            }

            fields[line[..colon].Trim().ToLowerInvariant()] = line[(colon + 1)..].Trim();
        }

        return (startLine, fields);
    }

    /// <summary>Reads the body the fields frame: chunked, by Content-Length, or (when <paramref name="untilClose"/>) to the end of the stream.</summary>
    public async Task<byte[]> ReadBodyAsync(Dictionary<string, string> fields, bool untilClose, CancellationToken token)
    {
        using var body = new MemoryStream();
        if (fields.TryGetValue("transfer-encoding", out var coding) && coding.EndsWith("chunked", StringComparison.OrdinalIgnoreCase))
        {
            while (true)
            {
                var sizeLine = await ReadLineAsync(token) ?? throw new EndOfStreamException("The chunked body ended early.");
                var size = int.Parse(sizeLine.Split(';')[0].Trim(), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                if (size == 0)
                {
                    while (await ReadLineAsync(token) is { Length: > 0 })
                    {
                    }

                    return body.ToArray();
                }

                await CopyAsync(body, size, token);
                if (await ReadLineAsync(token) is not { Length: 0 })
                {
                    throw new InvalidDataException("A chunk does not end with CRLF.");
                }
            }
        }

        if (fields.TryGetValue("content-length", out var length))
        {
            await CopyAsync(body, int.Parse(length, CultureInfo.InvariantCulture), token);
            return body.ToArray();
        }

        if (untilClose)
        {
            body.Write(_buffer, _start, _end - _start);
            _start = _end;
            while (await FillAsync(token))
            {
                body.Write(_buffer, _start, _end - _start);
                _start = _end;
            }
        }

        return body.ToArray();
    }

    /// <summary>Reads whatever arrives until the peer closes or resets; returns how many bytes that was.</summary>
    public async Task<long> DrainAsync(CancellationToken token)
    {
        long drained = _end - _start;
        _start = _end;
        try
        {
            while (await FillAsync(token))
            {
                drained += _end - _start;
                _start = _end;
            }
        }
        catch (IOException)
        {
            // Reset by the peer: drained as well.
        }

        return drained;
    }

    /// <summary>Reads at least one byte more; false at the end of the stream.</summary>
    public async Task<bool> ReadSomeAsync(CancellationToken token)
    {
        if (_end > _start)
        {
            _start++;
            return true;
        }

        if (!await FillAsync(token))
        {
            return false;
        }

        _start++;
        return true;
    }

    private async Task<string?> ReadLineAsync(CancellationToken token)
    {
        var line = new StringBuilder();
        while (true)
        {
            if (_start == _end && !await FillAsync(token))
            {
                return line.Length == 0 ? null : throw new EndOfStreamException("The stream ended inside a line.");
            }

            var end = Array.IndexOf(_buffer, (byte)'\n', _start, _end - _start);
            if (end < 0)
            {
                line.Append(Encoding.Latin1.GetString(_buffer, _start, _end - _start));
                _start = _end;
                continue;
            }

            line.Append(Encoding.Latin1.GetString(_buffer, _start, end - _start));
            _start = end + 1;
            return line.Length > 0 && line[^1] == '\r' ? line.ToString(0, line.Length - 1) : line.ToString();
        }
    }

    private async Task CopyAsync(MemoryStream body, int count, CancellationToken token)
    {
        while (count > 0)
        {
            if (_start == _end && !await FillAsync(token))
            {
                throw new EndOfStreamException($"The body ended {count} bytes early.");
            }

            var take = Math.Min(count, _end - _start);
            body.Write(_buffer, _start, take);
            _start += take;
            count -= take;
        }
    }

    private async Task<bool> FillAsync(CancellationToken token)
    {
        _start = 0;
        _end = await stream.ReadAsync(_buffer, token);
        return _end > 0;
    }
}
