using System.Buffers;
using LLRP.Diagnostics;

namespace LLRP.Http1;

/// <summary>
/// The chunked transfer coding (RFC 9112 §7.1) as an explicit state machine: it consumes framing byte by byte,
/// returns chunk data as slices of the input, and validates (then drops) chunk extensions and trailer fields.
/// A value type, so a copy can look ahead without consuming.
/// </summary>
/// <param name="yieldsTrailerSection">
/// Stop after the last chunk with <see cref="ChunkedDecodeStatus.TrailerSection"/>, the trailer section left for the
/// caller to parse and relay (an HTTP/2 client gets it as trailers), instead of validating and dropping it.
/// </param>
internal struct ChunkedDecoder(int maxLineSize, int maxTrailerSize, bool yieldsTrailerSection = false)
{
    private const int MaxSizeDigits = 16;

    private State _state;
    private long _remaining;
    private int _digits;
    private int _lineLength;
    private int _trailerLength;

    private enum State : byte
    {
        Size,
        ExtensionBeforeSemicolon,
        ExtensionBeforeName,
        ExtensionName,
        ExtensionAfterName,
        ExtensionBeforeValue,
        ExtensionTokenValue,
        ExtensionQuotedValue,
        ExtensionQuotedPair,
        ExtensionAfterValue,
        SizeLineFeed,
        Data,
        DataCarriageReturn,
        DataLineFeed,
        TrailerLineStart,
        TrailerName,
        TrailerValue,
        TrailerLineFeed,
        EndLineFeed,
        Done,
    }

    public readonly bool IsCompleted => _state == State.Done;

    public ChunkedDecodeStatus Decode(in ReadOnlySequence<byte> input, out SequencePosition consumed, out ReadOnlySequence<byte> data)
    {
        var reader = new SequenceReader<byte>(input);
        data = default;
        while (true)
        {
            if (_state == State.Data)
            {
                if (reader.End)
                {
                    break;
                }

                var start = reader.Position;
                var take = Math.Min(reader.Remaining, _remaining);
                reader.Advance(take);
                _remaining -= take;
                if (_remaining == 0)
                {
                    _state = State.DataCarriageReturn;
                }

                data = input.Slice(start, reader.Position);
                consumed = reader.Position;
                return ChunkedDecodeStatus.Data;
            }

            if (_state == State.Done)
            {
                consumed = reader.Position;
                return ChunkedDecodeStatus.Completed;
            }

            if (yieldsTrailerSection && _state == State.TrailerLineStart && _trailerLength == 0)
            {
                consumed = reader.Position;
                return ChunkedDecodeStatus.TrailerSection;
            }

            if (!reader.TryRead(out var value))
            {
                break;
            }

            Step(value);
        }

        consumed = reader.Position;
        return ChunkedDecodeStatus.NeedMoreData;
    }

    private void Step(byte value)
    {
        switch (_state)
        {
            case State.Size:
                CountLineByte();
                if (HexValue(value) is var hex and >= 0)
                {
                    if (++_digits > MaxSizeDigits || _remaining > (long.MaxValue >> 4))
                    {
                        HttpMessageException.Throw(RejectionReason.InvalidChunkSize);
                    }

                    _remaining = (_remaining << 4) | (uint)hex;
                    return;
                }

                if (value == (byte)'\n')
                {
                    HttpMessageException.Throw(RejectionReason.BareLineFeed);
                }

                if (_digits == 0)
                {
                    HttpMessageException.Throw(RejectionReason.InvalidChunkSize);
                }

                _state = value switch
                {
                    (byte)'\r' => State.SizeLineFeed,
                    (byte)';' => State.ExtensionBeforeName,
                    (byte)' ' or (byte)'\t' => State.ExtensionBeforeSemicolon,
                    _ => InvalidChunkSize(),
                };
                return;
            case State.SizeLineFeed:
                Expect(value, (byte)'\n', RejectionReason.BareLineFeed);
                _lineLength = 0;
                _digits = 0;
                _state = _remaining == 0 ? State.TrailerLineStart : State.Data;
                return;
            case State.DataCarriageReturn:
                Expect(value, (byte)'\r', RejectionReason.MissingChunkTerminator);
                _state = State.DataLineFeed;
                return;
            case State.DataLineFeed:
                Expect(value, (byte)'\n', RejectionReason.MissingChunkTerminator);
                _state = State.Size;
                return;
            case >= State.ExtensionBeforeSemicolon and <= State.ExtensionAfterValue:
                CountLineByte();
                if (value == (byte)'\n')
                {
                    HttpMessageException.Throw(RejectionReason.BareLineFeed);
                }

                _state = NextExtensionState(_state, value);
                return;
            default:
                StepTrailer(value);
                return;
        }
    }

    /// <summary>
    /// One byte of chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), chunk-ext-name = token,
    /// chunk-ext-val = token / quoted-string (RFC 9112 §7.1.1, RFC 9110 §5.6.4): validated exactly, then dropped.
    /// Whitespace must lead to a ";" or an "=", so the line cannot end in it.
    /// </summary>
    private static State NextExtensionState(State state, byte value) => state switch
    {
        State.ExtensionBeforeSemicolon => value switch
        {
            (byte)' ' or (byte)'\t' => state,
            (byte)';' => State.ExtensionBeforeName,
            _ => InvalidExtension(),
        },
        State.ExtensionBeforeName => value switch
        {
            (byte)' ' or (byte)'\t' => state,
            _ when HttpCharacters.IsToken(value) => State.ExtensionName,
            _ => InvalidExtension(),
        },
        State.ExtensionName => value switch
        {
            (byte)'\r' => State.SizeLineFeed,
            (byte)';' => State.ExtensionBeforeName,
            (byte)'=' => State.ExtensionBeforeValue,
            (byte)' ' or (byte)'\t' => State.ExtensionAfterName,
            _ when HttpCharacters.IsToken(value) => state,
            _ => InvalidExtension(),
        },
        State.ExtensionAfterName => value switch
        {
            (byte)' ' or (byte)'\t' => state,
            (byte)';' => State.ExtensionBeforeName,
            (byte)'=' => State.ExtensionBeforeValue,
            _ => InvalidExtension(),
        },
        State.ExtensionBeforeValue => value switch
        {
            (byte)' ' or (byte)'\t' => state,
            (byte)'"' => State.ExtensionQuotedValue,
            _ when HttpCharacters.IsToken(value) => State.ExtensionTokenValue,
            _ => InvalidExtension(),
        },
        State.ExtensionTokenValue => value switch
        {
            (byte)'\r' => State.SizeLineFeed,
            (byte)';' => State.ExtensionBeforeName,
            (byte)' ' or (byte)'\t' => State.ExtensionBeforeSemicolon,
            _ when HttpCharacters.IsToken(value) => state,
            _ => InvalidExtension(),
        },
        State.ExtensionQuotedValue => value switch
        {
            (byte)'"' => State.ExtensionAfterValue,
            (byte)'\\' => State.ExtensionQuotedPair,
            _ when HttpCharacters.IsQuotedText(value) => state,
            _ => InvalidExtension(),
        },
        State.ExtensionQuotedPair => HttpCharacters.IsQuotedText(value) || value is (byte)'"' or (byte)'\\'
            ? State.ExtensionQuotedValue
            : InvalidExtension(),
        _ => value switch
        {
            (byte)'\r' => State.SizeLineFeed,
            (byte)';' => State.ExtensionBeforeName,
            (byte)' ' or (byte)'\t' => State.ExtensionBeforeSemicolon,
            _ => InvalidExtension(),
        },
    };

    private static State InvalidExtension()
    {
        HttpMessageException.Throw(RejectionReason.InvalidChunkExtension);
        return default;
    }

    private static State InvalidChunkSize()
    {
        HttpMessageException.Throw(RejectionReason.InvalidChunkSize);
        return default;
    }

    /// <summary>trailer-section = *( field-line CRLF ): validated like header fields, bounded, then dropped (RFC 9110 §6.5.1).</summary>
    private void StepTrailer(byte value)
    {
        if (++_trailerLength > maxTrailerSize)
        {
            HttpMessageException.Throw(RejectionReason.InvalidTrailer);
        }

        switch (_state)
        {
            case State.TrailerLineStart:
                if (value == (byte)'\r')
                {
                    _state = State.EndLineFeed;
                }
                else if (HttpCharacters.IsToken(value))
                {
                    _state = State.TrailerName;
                }
                else
                {
                    HttpMessageException.Throw(RejectionReason.InvalidTrailer);
                }

                return;
            case State.TrailerName:
                if (value == (byte)':')
                {
                    _state = State.TrailerValue;
                }
                else if (!HttpCharacters.IsToken(value))
                {
                    HttpMessageException.Throw(RejectionReason.InvalidTrailer);
                }

                return;
            case State.TrailerValue:
                if (value == (byte)'\r')
                {
                    _state = State.TrailerLineFeed;
                }
                else if (IsControl(value))
                {
                    HttpMessageException.Throw(RejectionReason.InvalidTrailer);
                }

                return;
            case State.TrailerLineFeed:
                Expect(value, (byte)'\n', RejectionReason.InvalidTrailer);
                _state = State.TrailerLineStart;
                return;
            case State.EndLineFeed:
                Expect(value, (byte)'\n', RejectionReason.InvalidTrailer);
                _state = State.Done;
                return;
        }
    }

    private void CountLineByte()
    {
        if (++_lineLength > maxLineSize)
        {
            HttpMessageException.Throw(RejectionReason.ChunkLineTooLong);
        }
    }

    private static void Expect(byte value, byte expected, RejectionReason reason)
    {
        if (value != expected)
        {
            HttpMessageException.Throw(reason);
        }
    }

    private static bool IsControl(byte value) => (value < 0x20 && value != (byte)'\t') || value == 0x7F;

    private static int HexValue(byte value) => value switch
    {
        >= (byte)'0' and <= (byte)'9' => value - '0',
        >= (byte)'a' and <= (byte)'f' => value - 'a' + 10,
        >= (byte)'A' and <= (byte)'F' => value - 'A' + 10,
        _ => -1,
    };
}
