using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using LLRP.Http2.Codec;
using Microsoft.AspNetCore.Http;

namespace LLRP.Http2.Server;

/// <summary>The request side: its fields as decoded and checked (RFC 9113 §8.2, §8.3), its body as it arrives (§8.1, §6.9).</summary>
internal sealed partial class Http2Stream
{
    private readonly Pipe _requestBody;
    private readonly RequestBodyReader _bodyReader;
    private readonly Stream _requestStream;
    private readonly FieldStrings _strings = new();
    private readonly RequestHeadBytes _head = new();
    private readonly HeaderDictionary _requestHeaders = new();
    private readonly HeaderDictionary _requestTrailers = new();

    private string _method = "";
    private string _scheme = "";
    private string? _rawTarget;
    private string? _path;
    private string? _queryString;
    private bool _regularFieldSeen;
    private bool _hostSeen;
    private bool _requestHeadersMade;
    private string _headMethod = "";
    private string? _madeTarget;
    private bool _hasPath;
    private bool _hasScheme;
    private int _fieldCount;
    private long? _declaredLength;
    private long _bodyReceived;
    private int _receiveWindow;
    private int _unannouncedConsumed;
    private volatile bool _trailersAvailable;

    /// <summary>
    /// The request body pipe was written, completed or handed out since the stream opened, so <see cref="Recycle"/> resets
    /// it. A request that ended with its HEADERS (a GET) leaves it untouched unless its body is asked for
    /// (<see cref="RequestBodyAsked"/>): completing and resetting a pipe nobody reads was ~1% of an h2c GET's samples.
    /// </summary>
    private bool _requestBodyUsed;

    /// <summary>What makes the decoded request unusable, if anything.</summary>
    public RequestFault Fault { get; private set; }

    /// <summary>Adds one decoded field of the request's head (RFC 9113 §8.3: pseudo-header fields first, then the rest).</summary>
    public void AddField(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (Fault != RequestFault.None)
        {
            return;
        }

        if (name.Length > 0 && name[0] == (byte)':')
        {
            AddPseudoField(name, value);
            return;
        }

        if (!_regularFieldSeen)
        {
            _regularFieldSeen = true;
            StartHead();
        }

        if (!CheckField(name, value))
        {
            return;
        }

        if (name.SequenceEqual("content-length"u8))
        {
            if (!long.TryParse(value, System.Globalization.NumberStyles.None, null, out var length) || (_declaredLength is { } declared && declared != length))
            {
                Fault = RequestFault.Malformed;
                return;
            }

            _declaredLength = length;
        }
        else if (name.SequenceEqual("cookie"u8))
        {
            // RFC 9113 §8.2.3: cookie pairs sent as separate fields are joined with "; " before HTTP/1.1 sees them.
            _head.AddCookie(value);
            return;
        }
        else if (name.SequenceEqual("host"u8) && !_hostSeen)
        {
            // RFC 9113 §8.3.1: :authority and Host must agree; a Host that agrees is the one :authority wrote, one that
            // disagrees stays beside it, and the HTTP/1.1 parser answers two Host fields with 400 (RFC 9112 §3.2).
            _hostSeen = true;
            if (_head.HasAuthority && Ascii.EqualsIgnoreCase(value, _head.Authority))
            {
                return;
            }
        }

        _head.Add(name, value);
    }

    /// <summary>Adds one decoded field of the request's trailers (RFC 9113 §8.1: no pseudo-header field there).</summary>
    public void AddTrailer(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (Fault != RequestFault.None)
        {
            return;
        }

        if ((name.Length > 0 && name[0] == (byte)':') || !CheckField(name, value))
        {
            Fault = RequestFault.Malformed;
            return;
        }

        _requestTrailers.Append(FieldStrings.Intern(name), Encoding.Latin1.GetString(value));
    }

    /// <summary>Checks the whole head once decoded (RFC 9113 §8.3.1) and puts <c>:authority</c> where HTTP/1.1 has it.</summary>
    /// <param name="tls">The connection runs over TLS: <c>:scheme</c> must say <c>https</c>, else <c>http</c> (as Kestrel checks).</param>
    /// <param name="tooLarge">The header list was over its limit (RFC 9113 §6.5.2).</param>
    /// <param name="selfDependent">The HEADERS frame made the stream depend on itself (RFC 9113 §5.3.1).</param>
    public void EndFields(bool tls, bool tooLarge, bool selfDependent)
    {
        if (selfDependent)
        {
            Fault = RequestFault.Malformed;
        }

        if (tooLarge && Fault == RequestFault.None)
        {
            Fault = RequestFault.TooLarge;
        }

        if (Fault != RequestFault.None)
        {
            return;
        }

        var connect = _method == HttpMethods.Connect;
        if (_method.Length == 0 || (connect ? _hasScheme || _hasPath || !_head.HasAuthority : !_hasScheme || !_hasPath || _head.Target.Length == 0)
            || (_hasScheme && _scheme != (tls ? "https" : "http"))
            || (RequestEnded && _declaredLength is > 0))
        {
            Fault = RequestFault.Malformed;
            return;
        }

        if (!_regularFieldSeen)
        {
            StartHead();
        }

        _head.End(chunked: _declaredLength is null && !_endStreamOnHead);
    }

    /// <summary>The request line and Host, once the pseudo-header fields (which come first, RFC 9113 §8.3) are all in.</summary>
    private void StartHead()
    {
        _head.Start(_method);
        _headMethod = _method;
    }

    /// <summary><c>:path</c> as received, as a string: made the first time it is asked for.</summary>
    private string RawTarget() => _rawTarget ??= _madeTarget = _strings.Value(":path", _head.Target);

    /// <summary>The head as written, unless the method, the target or the fields were replaced or made strings since.</summary>
    private bool TryGetWrittenHead(out ReadOnlyMemory<byte> head)
    {
        head = _head.Written;
        return !_requestHeadersMade && _requestHeadersOverride is null && ReferenceEquals(_method, _headMethod) && ReferenceEquals(_rawTarget, _madeTarget);
    }

    /// <summary>The request's fields as strings, made from the written head's field lines the first time they are asked for.</summary>
    private HeaderDictionary RequestHeaders()
    {
        if (!_requestHeadersMade)
        {
            _requestHeadersMade = true;
            for (var i = 0; i < _head.FieldCount; i++)
            {
                var (name, value) = _head.Field(i);
                var key = FieldStrings.Intern(name.Span);
                _requestHeaders.Append(key, _strings.Value(key, value.Span));
            }
        }

        return _requestHeaders;
    }

    private void AddPseudoField(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (_regularFieldSeen || !FieldRules.IsValidValue(value))
        {
            Fault = RequestFault.Malformed;
            return;
        }

        if (name.SequenceEqual(":method"u8) && _method.Length == 0 && value.Length > 0)
        {
            _method = FieldStrings.Intern(value);
        }
        else if (name.SequenceEqual(":scheme"u8) && !_hasScheme)
        {
            (_scheme, _hasScheme) = (FieldStrings.Intern(value), true);
        }
        else if (name.SequenceEqual(":path"u8) && !_hasPath)
        {
            _head.SetTarget(value);
            _hasPath = true;
        }
        else if (name.SequenceEqual(":authority"u8) && !_head.HasAuthority)
        {
            _head.SetAuthority(value);
        }
        else
        {
            // A pseudo-header field repeated, or one this server does not know (RFC 9113 §8.3): :protocol (RFC 8441) too,
            // since SETTINGS_ENABLE_CONNECT_PROTOCOL is never sent.
            Fault = RequestFault.Malformed;
        }
    }

    private bool CheckField(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (!FieldRules.IsValidName(name) || !FieldRules.IsValidValue(value) || FieldRules.IsConnectionSpecific(name)
            || (name.SequenceEqual("te"u8) && !value.SequenceEqual("trailers"u8)))
        {
            Fault = RequestFault.Malformed;
            return false;
        }

        var limits = _connection.Limits;
        if (name.Length + value.Length > limits.MaxHeaderFieldSize || ++_fieldCount > limits.MaxHeaderCount)
        {
            Fault = RequestFault.TooLarge;
            return false;
        }

        return true;
    }

    /// <summary>
    /// A DATA frame of the stream (RFC 9113 §6.1): <paramref name="data"/> without padding, <paramref name="flowLength"/>
    /// the whole payload as flow control counts it. Under the output's lock.
    /// </summary>
    /// <returns>The stream error to reset it with, or <see cref="Http2ErrorCode.NoError"/>.</returns>
    /// <exception cref="Http2ConnectionException">The client sent past the stream's window (§6.9.1).</exception>
    public Http2ErrorCode OnData(in ReadOnlySequence<byte> data, int flowLength, bool endStream)
    {
        if (flowLength > _receiveWindow)
        {
            throw new Http2ConnectionException(Http2ErrorCode.FlowControlError, "DATA past the stream's flow-control window");
        }

        _receiveWindow -= flowLength;
        _bodyReceived += data.Length;
        if (_declaredLength is { } declared && (_bodyReceived > declared || (endStream && _bodyReceived != declared)))
        {
            // RFC 9113 §8.1.1: a body longer or shorter than its content-length makes the request malformed.
            return Http2ErrorCode.ProtocolError;
        }

        // Padding never reaches the application: its share of the window comes back with the next update.
        _unannouncedConsumed += flowLength - (int)data.Length;
        var writer = _requestBody.Writer;
        foreach (var segment in data)
        {
            writer.Write(segment.Span);
        }

        _ = writer.FlushAsync();
        if (endStream)
        {
            RequestEnded = true;
            _trailersAvailable = true;
            writer.Complete();
        }

        return Http2ErrorCode.NoError;
    }

    /// <summary>
    /// The application asks for the request body: a request that ended with its HEADERS (RFC 9113 §8.1) has an empty one,
    /// its pipe completed on this first ask.
    /// </summary>
    private void RequestBodyAsked()
    {
        if (!_requestBodyUsed)
        {
            _requestBodyUsed = true;
            _requestBody.Writer.Complete();
        }
    }

    /// <summary>The trailers ended the request (decoded with <see cref="AddTrailer"/>). Under the output's lock.</summary>
    public Http2ErrorCode OnTrailers()
    {
        if (Fault != RequestFault.None || (_declaredLength is { } declared && _bodyReceived != declared))
        {
            return Http2ErrorCode.ProtocolError;
        }

        RequestEnded = true;
        _trailersAvailable = true;
        _requestBody.Writer.Complete();
        return Http2ErrorCode.NoError;
    }

    /// <summary>The application consumed <paramref name="count"/> body bytes: once half the window is used, the client may send as much again (§6.9).</summary>
    public void OnBodyConsumed(long count)
    {
        if (count == 0)
        {
            return;
        }

        lock (_output.Sync)
        {
            _unannouncedConsumed += (int)count;
            if (RequestEnded || IsReset || _output.IsClosed || _unannouncedConsumed < _connection.Limits.InitialStreamWindowSize / 2)
            {
                return;
            }

            FrameWriter.WriteWindowUpdate(_output.Writer, Id, _unannouncedConsumed);
            _receiveWindow += _unannouncedConsumed;
            _unannouncedConsumed = 0;
            _output.ScheduleFlush();
        }
    }

    private void ResetRequest()
    {
        if (_requestHeadersMade)
        {
            _requestHeaders.Clear();
        }

        _requestTrailers.Clear();
        _head.Reset();
        (_method, _scheme, _rawTarget, _path, _queryString) = ("", "", null, null, null);
        (_regularFieldSeen, _hasPath, _hasScheme, _fieldCount, _declaredLength, _bodyReceived) = (false, false, false, 0, null, 0);
        (_hostSeen, _requestHeadersMade, _headMethod, _madeTarget) = (false, false, "", null);
        (_unannouncedConsumed, _trailersAvailable, Fault) = (0, false, RequestFault.None);
    }
}
