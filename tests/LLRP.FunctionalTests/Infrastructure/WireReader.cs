using System.Globalization;
using System.Text;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>
/// Strict, bounded reads of HTTP/1.1 wire data from a stream: CRLF lines, field sections, exact byte
/// counts, chunked bodies and everything up to the peer's close. Keeps a copy of every byte received.
/// </summary>
public sealed class WireReader
{
    private readonly Stream _stream;
    private readonly MemoryStream _received = new();
    private byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;

    public WireReader(Stream stream) => _stream = stream;

    /// <summary>Every byte received so far, consumed or not.</summary>
    public byte[] Received
    {
        get
        {
            lock (_received)
            {
                return _received.ToArray();
            }
        }
    }

    /// <summary>The trailer section of the last chunked body read (RFC 9112 §7.1.2); empty before one.</summary>
    public IReadOnlyList<HttpField> LastTrailers { get; private set; } = [];

    /// <summary>How many bytes were received but not consumed yet.</summary>
    public int Buffered => _end - _start;

    /// <summary>Reads one line, which must end in CRLF, without its CRLF; null when the peer closed before its first byte.</summary>
    public async Task<string?> ReadLineOrEndAsync()
    {
        while (true)
        {
            var index = _buffer.AsSpan(_start, _end - _start).IndexOf((byte)'\n');
            if (index >= 0)
            {
                if (index == 0 || _buffer[_start + index - 1] != (byte)'\r')
                {
                    throw new InvalidDataException($"A line ends in a bare LF: '{Encoding.Latin1.GetString(_buffer, _start, index)}'.");
                }

                var line = Encoding.Latin1.GetString(_buffer, _start, index - 1);
                _start += index + 1;
                return line;
            }

            if (!await FillAsync())
            {
                return _start == _end
                    ? null
                    : throw new EndOfStreamException($"The peer closed in the middle of a line: '{Encoding.Latin1.GetString(_buffer, _start, _end - _start)}'.");
            }
        }
    }

    /// <summary>Reads one CRLF-terminated line; the peer closing first is an error.</summary>
    public async Task<string> ReadLineAsync() =>
        await ReadLineOrEndAsync() ?? throw new EndOfStreamException("The peer closed where a line was expected.");

    /// <summary>Reads field lines up to the empty line that ends a head or a trailer section (RFC 9112 §5).</summary>
    public async Task<(IReadOnlyList<HttpField> Fields, IReadOnlyList<string> Lines)> ReadFieldSectionAsync()
    {
        var fields = new List<HttpField>();
        var lines = new List<string>();
        for (var line = await ReadLineAsync(); line.Length > 0; line = await ReadLineAsync())
        {
            var colon = line.IndexOf(':');
            if (colon <= 0 || line.AsSpan(0, colon).IndexOfAny(' ', '\t') >= 0)
            {
                throw new InvalidDataException($"Invalid field line: '{line}'.");
            }

            fields.Add(new HttpField(line[..colon], line[(colon + 1)..].Trim(' ', '\t')));
            lines.Add(line);
        }

        return (fields, lines);
    }

    /// <summary>Reads exactly <paramref name="count"/> bytes; the peer closing first is an error.</summary>
    public async Task<byte[]> ReadExactlyAsync(long count)
    {
        var result = new byte[count];
        var filled = 0;
        while (filled < count)
        {
            if (_start == _end && !await FillAsync())
            {
                throw new EndOfStreamException($"The peer closed after {filled} of {count} bytes.");
            }

            var take = (int)Math.Min(count - filled, _end - _start);
            _buffer.AsSpan(_start, take).CopyTo(result.AsSpan(filled));
            _start += take;
            filled += take;
        }

        return result;
    }

    /// <summary>Reads everything up to the peer's close (a reset is an error).</summary>
    public async Task<byte[]> ReadToEndAsync()
    {
        using var rest = new MemoryStream();
        do
        {
            rest.Write(_buffer, _start, _end - _start);
            _start = _end;
        }
        while (await FillAsync());

        return rest.ToArray();
    }

    /// <summary>Reads and decodes a chunked body (RFC 9112 §7.1), consuming its trailer section.</summary>
    public async Task<byte[]> ReadChunkedAsync()
    {
        using var body = new MemoryStream();
        while (true)
        {
            var line = await ReadLineAsync();
            var sizeText = line.Split(';', 2)[0];
            if (sizeText.Length == 0
                || !long.TryParse(sizeText, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var size)
                || size < 0)
            {
                throw new InvalidDataException($"Invalid chunk-size line: '{line}'.");
            }

            if (size == 0)
            {
                LastTrailers = (await ReadFieldSectionAsync()).Fields;
                return body.ToArray();
            }

            body.Write(await ReadExactlyAsync(size));
            if (await ReadLineAsync() is { Length: > 0 } junk)
            {
                throw new InvalidDataException($"Chunk data is followed by '{junk}' instead of CRLF.");
            }
        }
    }

    private async Task<bool> FillAsync()
    {
        if (_start == _end)
        {
            _start = 0;
            _end = 0;
        }
        else if (_end == _buffer.Length)
        {
            if (_start > 0)
            {
                Buffer.BlockCopy(_buffer, _start, _buffer, 0, _end - _start);
                _end -= _start;
                _start = 0;
            }
            else
            {
                Array.Resize(ref _buffer, _buffer.Length * 2);
            }
        }

        var read = await Deadline.RunAsync(token => _stream.ReadAsync(_buffer.AsMemory(_end), token), "A read");
        if (read == 0)
        {
            return false;
        }

        lock (_received)
        {
            _received.Write(_buffer, _end, read);
        }

        _end += read;
        return true;
    }
}
