using System.Buffers;

namespace LLRP.Http1;

/// <summary>
/// The forwarding rules for requests (RFC 9110 §7.6), the one place every mode takes them from: hop-by-hop fields
/// removed (with every field a <c>Connection</c> option names), <c>Host</c> set to the downstream's authority (or the
/// client's, preserved), <c>TE: trailers</c> kept only when the client accepts trailers, <c>X-Forwarded-For</c>
/// appended, <c>X-Forwarded-Proto</c> and <c>X-Forwarded-Host</c> set, <c>Via</c> appended, the target put after the
/// downstream's path prefix, <c>Connection: upgrade</c> and <c>Upgrade</c> re-sent for an upgrade the proxy tunnels
/// (<see cref="RequestHead.IsUpgrade"/>). Framing is not a field here: each client re-computes it. One instance per client
/// connection, pointed at the destination of each batch (<see cref="Retarget"/>).
/// </summary>
internal sealed class RequestRewriter
{
    private byte[] _authority;
    private byte[] _pathPrefix;
    private readonly byte[] _clientAddress;
    private readonly byte[] _scheme;
    private readonly RewriteSettings _settings;
    private byte[] _joined = [];

    /// <param name="authority">The downstream's authority, as <c>Host</c> gets it.</param>
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
    }

    /// <summary>Points the rules at another downstream: its authority for <c>Host</c>, its path prefix for the target.</summary>
    public void Retarget(byte[] authority, byte[] pathPrefix)
    {
        _authority = authority;
        _pathPrefix = pathPrefix;
    }

    /// <summary>The most bytes <see cref="WriteHead"/> adds to a head beyond its own length.</summary>
    public int Overhead => 192 + _authority.Length + _pathPrefix.Length + _clientAddress.Length;

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
        if (path.IsEmpty || path[0] != (byte)'/')
        {
            writer.Write("/"u8);
        }

        writer.Write(path);
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
        sink.Field("Host"u8, _settings.PreserveHost && !clientAuthority.IsEmpty ? clientAuthority : _authority);
        foreach (ref readonly var field in head.Fields)
        {
            if (IsForwardedAsReceived(field.Kind))
            {
                sink.Field(field.Name(source), field.Value(source));
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

        if (_settings.ForwardedHeaders)
        {
            sink.Field("X-Forwarded-For"u8, JoinList(head, FieldKind.XForwardedFor, _clientAddress));
            sink.Field("X-Forwarded-Proto"u8, _scheme);
            if (!clientAuthority.IsEmpty)
            {
                sink.Field("X-Forwarded-Host"u8, clientAuthority);
            }
        }

        if (_settings.AddVia)
        {
            sink.Field("Via"u8, JoinList(head, FieldKind.Via, head.IsHttp10 ? "1.0 llrp"u8 : "1.1 llrp"u8));
        }
    }

    private bool IsForwardedAsReceived(FieldKind kind) => kind switch
    {
        FieldKind.Other or FieldKind.Expect or FieldKind.Trailer => true,
        FieldKind.Via => !_settings.AddVia,
        FieldKind.XForwardedFor or FieldKind.XForwardedProto or FieldKind.XForwardedHost => !_settings.ForwardedHeaders,
        _ => false,
    };

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
