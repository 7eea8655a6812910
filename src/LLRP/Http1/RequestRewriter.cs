using System.Buffers;
using LLRP.Configuration.Routes;
using LLRP.Http1.Transforms;

namespace LLRP.Http1;

/// <summary>
/// The forwarding rules for requests (RFC 9110 §7.6), the one place every mode takes them from: hop-by-hop fields
/// removed (with every field a <c>Connection</c> option names), <c>Host</c> set to the destination's authority (or the
/// client's, preserved), <c>TE: trailers</c> kept only when the client accepts trailers, <c>X-Forwarded-For</c>
/// appended, <c>X-Forwarded-Proto</c> and <c>X-Forwarded-Host</c> set, <c>Via</c> appended, the target put after the
/// destination's path prefix, <c>Connection: upgrade</c> and <c>Upgrade</c> re-sent for an upgrade the proxy tunnels
/// (<see cref="RequestHead.IsUpgrade"/>), and the route's transforms (<see cref="RequestTransforms"/>) applied. Framing is
/// not a field here: each client re-computes it. One instance per client connection, pointed at the route and the
/// destination of each batch (<see cref="Retarget"/>), and given each request's path captures (<see cref="Capture"/>).
/// </summary>
internal sealed class RequestRewriter
{
    private byte[] _authority;
    private byte[] _pathPrefix;
    private byte[] _clientAddress;
    private byte[] _scheme;
    private readonly RewriteSettings _settings;
    private byte[] _joined = [];
    private RequestTransforms _transforms = RequestTransforms.None;
    private ForwardedActions _forwarded;
    private byte[] _target = [];
    private byte[] _scratch = [];
    private readonly Range[] _captures = new Range[PatternPiece.MaxCaptures];
    private int _captureCount;

    /// <param name="authority">The destination's authority, as <c>Host</c> gets it.</param>
    /// <param name="pathPrefix">Put before every target; empty or starting with '/', never ending with '/'.</param>
    /// <param name="clientAddress">The client's address as <c>X-Forwarded-For</c> gets it.</param>
    /// <param name="scheme">The scheme the client used, for <c>X-Forwarded-Proto</c>.</param>
    public RequestRewriter(byte[] authority, byte[] pathPrefix, byte[] clientAddress, byte[] scheme, RewriteSettings settings)
    {
        _authority = authority;
        _pathPrefix = pathPrefix;
        _clientAddress = clientAddress;
        _scheme = scheme;
        _settings = settings;
        _forwarded = settings.ForwardedHeaders ? ForwardedActions.Default : ForwardedActions.Off;
    }

    /// <summary>
    /// The entry appended to <c>Via</c> when the request was received in another protocol than its head says (an HTTP/2
    /// request's head is rendered as HTTP/1.1); null takes the head's version.
    /// </summary>
    public byte[]? ViaEntry { get; init; }

    /// <summary>Points the rules at another client, as a rewriter used again for another client's request (an HTTP/2 stream's) is.</summary>
    /// <param name="clientAddress">The client's address as <c>X-Forwarded-For</c> gets it.</param>
    /// <param name="scheme">The scheme the client used, for <c>X-Forwarded-Proto</c>.</param>
    public void ForClient(byte[] clientAddress, byte[] scheme)
    {
        _clientAddress = clientAddress;
        _scheme = scheme;
    }

    /// <summary>
    /// Points the rules at another route and destination: the destination's authority for <c>Host</c> and its path prefix
    /// for the target, the route's transforms for the rest.
    /// </summary>
    public void Retarget(byte[] authority, byte[] pathPrefix, RequestTransforms transforms)
    {
        _authority = authority;
        _pathPrefix = pathPrefix;
        _transforms = transforms;
        _forwarded = transforms.Forwarded ?? (_settings.ForwardedHeaders ? ForwardedActions.Default : ForwardedActions.Off);
    }

    /// <summary>The next request's path captures, as ranges of its path (without the query), by the route's parameter index.</summary>
    public void Capture(ReadOnlySpan<Range> captures)
    {
        captures.CopyTo(_captures);
        _captureCount = captures.Length;
    }

    /// <summary>The most bytes <see cref="WriteHead"/> adds to a head beyond its own length.</summary>
    public int Overhead => 192 + _authority.Length + _pathPrefix.Length + _clientAddress.Length + _transforms.Overhead;

    /// <summary>Writes the whole head to forward: request line, fields, framing, the empty line.</summary>
    public void WriteHead<TWriter>(ref BufferWriter<TWriter> writer, RequestHead head)
        where TWriter : IBufferWriter<byte>
    {
        writer.Write(head.Method);
        writer.Write(" "u8);
        WriteTarget(ref writer, head);
        writer.Write(" HTTP/1.1\r\n"u8);
        WriteFields(head, ref writer);
        if (head.Framing == BodyFraming.ContentLength)
        {
            writer.Write("Content-Length: "u8);
            writer.WriteDecimal(head.ContentLength);
            writer.Write("\r\n"u8);
        }
        else if (head.Framing == BodyFraming.Chunked)
        {
            writer.Write("Transfer-Encoding: chunked\r\n"u8);
        }

        writer.Write("\r\n"u8);
    }

    /// <summary>The target to forward: the path prefix, then the client's path and query byte for byte (origin-form; '*' as is).</summary>
    public void WriteTarget<TWriter>(ref BufferWriter<TWriter> writer, RequestHead head)
        where TWriter : IBufferWriter<byte>
    {
        var path = head.Path;
        if (head.IsAsteriskForm)
        {
            writer.Write(path);
            return;
        }

        writer.Write(_pathPrefix);
        if (_transforms.ChangesTarget)
        {
            path = Transform(path);
        }

        if (path.IsEmpty || path[0] != (byte)'/')
        {
            writer.Write("/"u8);
        }

        writer.Write(path);
    }

    /// <summary>The path and query after the route's path and query transforms, in order (YARP's meanings).</summary>
    private ReadOnlySpan<byte> Transform(ReadOnlySpan<byte> target)
    {
        var question = target.IndexOf((byte)'?');
        var path = question < 0 ? target : target[..question];
        var query = question < 0 ? default : target[(question + 1)..];
        var size = target.Length + _transforms.Overhead + 1;
        foreach (ref readonly var step in _transforms.Path.AsSpan())
        {
            if (step.Kind == PathTransformKind.Pattern)
            {
                foreach (var piece in step.Pattern)
                {
                    size += piece.Capture >= 0 ? path.Length : 0;
                }
            }
        }

        EnsureCapacity(ref _target, size);
        EnsureCapacity(ref _scratch, size);
        var length = path.Length;
        path.CopyTo(_target);
        var original = path;
        foreach (ref readonly var step in _transforms.Path.AsSpan())
        {
            length = PathTransformer.Apply(step, _target.AsSpan(0, length), original, _captures.AsSpan(0, _captureCount), _scratch);
            (_target, _scratch) = (_scratch, _target);
        }

        if (length == 0)
        {
            _target[length++] = (byte)'/';
        }

        length += QueryTransformer.Apply(_transforms.Query, query, _target.AsSpan(length));
        return _target.AsSpan(0, length);
    }

    private static void EnsureCapacity(ref byte[] buffer, int size)
    {
        if (buffer.Length < size)
        {
            buffer = new byte[Math.Max(size, 256)];
        }
    }

    /// <summary>The target to forward (<see cref="WriteTarget"/>), written into <paramref name="buffer"/> after emptying it.</summary>
    public ReadOnlySpan<byte> RenderTarget(RequestHead head, ArrayBufferWriter<byte> buffer)
    {
        buffer.ResetWrittenCount();
        var writer = new BufferWriter<ArrayBufferWriter<byte>>(buffer, 256);
        WriteTarget(ref writer, head);
        writer.Commit();
        return buffer.WrittenSpan;
    }

    /// <summary>Gives <paramref name="sink"/> every field to forward, <c>Host</c> first, framing fields excepted.</summary>
    public void WriteFields<TSink>(RequestHead head, ref TSink sink)
        where TSink : IFieldSink, allows ref struct
    {
        var source = head.Source.Span;
        var clientAuthority = head.ClientAuthority;
        var transforms = _transforms;
        sink.Field("Host"u8, (transforms.OriginalHost ?? _settings.PreserveHost) && !clientAuthority.IsEmpty ? clientAuthority : _authority);
        foreach (ref readonly var field in head.Fields)
        {
            if (IsForwardedAsReceived(field.Kind)
                && (!transforms.ChangesFields || IsCopied(field.Kind, field.Name(source)))
                && (_forwarded.Prefix is ForwardedAction.Off or ForwardedAction.Append || !IsForwardedPrefix(field.Kind, field.Name(source))))
            {
                sink.Field(field.Name(source), field.Value(source));
            }
        }

        foreach (ref readonly var step in transforms.Headers.AsSpan())
        {
            if (step.Action != TransformAction.Remove)
            {
                sink.Field(step.Name, step.Value);
            }
        }

        if (head.AcceptsTrailers)
        {
            sink.Field("TE"u8, "trailers"u8);
        }

        if (head.IsUpgrade)
        {
            // RFC 9110 §7.8: an upgrade the proxy tunnels is asked for again, hop by hop, with the client's protocols.
            sink.Field("Connection"u8, "upgrade"u8);
            foreach (ref readonly var field in head.Fields)
            {
                if (field.Kind == FieldKind.Upgrade)
                {
                    sink.Field("Upgrade"u8, field.Value(source));
                }
            }
        }

        AddForwarded(ref sink, head, "X-Forwarded-For"u8, FieldKind.XForwardedFor, _forwarded.For, _clientAddress);
        AddForwarded(ref sink, head, "X-Forwarded-Proto"u8, FieldKind.XForwardedProto, _forwarded.Proto, _scheme);
        AddForwarded(ref sink, head, "X-Forwarded-Host"u8, FieldKind.XForwardedHost, _forwarded.Host, clientAuthority);

        if (_settings.AddVia)
        {
            sink.Field("Via"u8, JoinList(head, FieldKind.Via, ViaEntry is { } via ? via : head.IsHttp10 ? "1.0 llrp"u8 : "1.1 llrp"u8));
        }
    }

    /// <summary>Adds the proxy's value of one <c>X-Forwarded-*</c> field, as its action says (an empty value adds nothing).</summary>
    private void AddForwarded<TSink>(ref TSink sink, RequestHead head, ReadOnlySpan<byte> name, FieldKind kind, ForwardedAction action, ReadOnlySpan<byte> value)
        where TSink : IFieldSink, allows ref struct
    {
        if (value.IsEmpty)
        {
            return;
        }

        if (action == ForwardedAction.Set)
        {
            sink.Field(name, value);
        }
        else if (action == ForwardedAction.Append)
        {
            sink.Field(name, JoinList(head, kind, value));
        }
    }

    private bool IsForwardedAsReceived(FieldKind kind) => kind switch
    {
        FieldKind.Other or FieldKind.Expect or FieldKind.Trailer => true,
        FieldKind.Via => !_settings.AddVia,
        FieldKind.XForwardedFor => _forwarded.For == ForwardedAction.Off,
        FieldKind.XForwardedProto => _forwarded.Proto == ForwardedAction.Off,
        FieldKind.XForwardedHost => _forwarded.Host == ForwardedAction.Off,
        _ => false,
    };

    /// <summary>A received field the route's header transforms leave in place: a field of the protocol, or copied and not replaced nor dropped.</summary>
    private bool IsCopied(FieldKind kind, ReadOnlySpan<byte> name)
        => kind != FieldKind.Other || (_transforms.CopyHeaders && !_transforms.DropsField(name));

    /// <summary>
    /// <c>X-Forwarded-Prefix</c>: the path base a proxy in front removed. LLRP removes none of its own, so Set and Remove
    /// drop the received field and add nothing, as YARP does for an empty path base.
    /// </summary>
    private static bool IsForwardedPrefix(FieldKind kind, ReadOnlySpan<byte> name)
        => kind == FieldKind.Other && System.Text.Ascii.EqualsIgnoreCase(name, "X-Forwarded-Prefix"u8);

    /// <summary>Every received value of a list field, in order, then <paramref name="appended"/>, as one value (RFC 9110 §5.3).</summary>
    private ReadOnlySpan<byte> JoinList(RequestHead head, FieldKind kind, ReadOnlySpan<byte> appended)
    {
        var source = head.Source.Span;
        var length = 0;
        foreach (ref readonly var field in head.Fields)
        {
            if (field.Kind == kind && field.ValueLength > 0)
            {
                length += field.ValueLength + 2;
            }
        }

        if (length == 0)
        {
            return appended;
        }

        if (_joined.Length < length + appended.Length)
        {
            _joined = new byte[Math.Max(length + appended.Length, 256)];
        }

        var joined = _joined.AsSpan();
        var written = 0;
        foreach (ref readonly var field in head.Fields)
        {
            if (field.Kind == kind && field.ValueLength > 0)
            {
                field.Value(source).CopyTo(joined[written..]);
                written += field.ValueLength;
                ", "u8.CopyTo(joined[written..]);
                written += 2;
            }
        }

        appended.CopyTo(joined[written..]);
        return joined[..(written + appended.Length)];
    }
}
