using System.Buffers;
using LLRP.Configuration;

namespace LLRP.Http1;

/// <summary>
/// Re-emits a client request head canonically for one downstream (RFC 9110 §7.6): hop-by-hop fields removed,
/// framing re-computed, <c>Host</c>, <c>X-Forwarded-*</c> and <c>Via</c> applied. One instance per client connection.
/// </summary>
internal sealed class RequestHeadWriter(DownstreamEndpoint downstream, ProxyOptions options, byte[] clientAddress)
{
    private readonly bool _rewriteForwarded = options.ForwardedHeaders;
    private readonly bool _addVia = options.AddVia;
    private readonly bool _preserveHost = options.PreserveHost;

    public DownstreamEndpoint Downstream { get; } = downstream;

    /// <summary>The most bytes <see cref="Write"/> adds to a head beyond its own length.</summary>
    public int Overhead => 160 + Downstream.Authority.Length + Downstream.PathPrefix.Length + clientAddress.Length;

    public void Write<TWriter>(ref BufferWriter<TWriter> writer, RequestHead head)
        where TWriter : IBufferWriter<byte>
    {
        var source = head.Source.Span;
        writer.Write(head.Method);
        writer.Write(" "u8);
        WriteTarget(ref writer, head);
        writer.Write(" HTTP/1.1\r\nHost: "u8);
        var clientAuthority = head.ClientAuthority;
        writer.Write(_preserveHost && !clientAuthority.IsEmpty ? clientAuthority : Downstream.Authority);
        writer.Write("\r\n"u8);

        foreach (ref readonly var field in head.Fields)
        {
            if (IsForwardedAsReceived(field.Kind))
            {
                writer.Write(field.Name(source));
                writer.Write(": "u8);
                writer.Write(field.Value(source));
                writer.Write("\r\n"u8);
            }
        }

        if (head.AcceptsTrailers)
        {
            writer.Write("TE: trailers\r\n"u8);
        }

        WriteFraming(ref writer, head);
        if (_rewriteForwarded)
        {
            WriteList(ref writer, "X-Forwarded-For: "u8, head, FieldKind.XForwardedFor, clientAddress);
            writer.Write("X-Forwarded-Proto: http\r\n"u8);
            if (!clientAuthority.IsEmpty)
            {
                writer.Write("X-Forwarded-Host: "u8);
                writer.Write(clientAuthority);
                writer.Write("\r\n"u8);
            }
        }

        if (_addVia)
        {
            WriteList(ref writer, "Via: "u8, head, FieldKind.Via, head.IsHttp10 ? "1.0 llrp"u8 : "1.1 llrp"u8);
        }

        writer.Write("\r\n"u8);
    }

    private bool IsForwardedAsReceived(FieldKind kind) => kind switch
    {
        FieldKind.Other or FieldKind.Expect or FieldKind.Trailer => true,
        FieldKind.Via => !_addVia,
        FieldKind.XForwardedFor or FieldKind.XForwardedProto or FieldKind.XForwardedHost => !_rewriteForwarded,
        _ => false,
    };

    private void WriteTarget<TWriter>(ref BufferWriter<TWriter> writer, RequestHead head)
        where TWriter : IBufferWriter<byte>
    {
        var path = head.Path;
        if (path.Length == 1 && path[0] == (byte)'*')
        {
            writer.Write(path);
            return;
        }

        writer.Write(Downstream.PathPrefix);
        if (path.IsEmpty || path[0] != (byte)'/')
        {
            writer.Write("/"u8);
        }

        writer.Write(path);
    }

    private static void WriteFraming<TWriter>(ref BufferWriter<TWriter> writer, RequestHead head)
        where TWriter : IBufferWriter<byte>
    {
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
    }

    /// <summary>Writes every received value of a list field, in order, followed by <paramref name="appended"/>, as one field line.</summary>
    private static void WriteList<TWriter>(ref BufferWriter<TWriter> writer, ReadOnlySpan<byte> prefix, RequestHead head, FieldKind kind, ReadOnlySpan<byte> appended)
        where TWriter : IBufferWriter<byte>
    {
        var source = head.Source.Span;
        writer.Write(prefix);
        foreach (ref readonly var field in head.Fields)
        {
            if (field.Kind == kind && field.ValueLength > 0)
            {
                writer.Write(field.Value(source));
                writer.Write(", "u8);
            }
        }

        writer.Write(appended);
        writer.Write("\r\n"u8);
    }
}
