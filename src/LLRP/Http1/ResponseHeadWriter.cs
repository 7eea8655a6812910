using System.Buffers;
using LLRP.Configuration.Routes;
using LLRP.Http1.Transforms;

namespace LLRP.Http1;

/// <summary>
/// Re-emits a destination response head for the client (RFC 9110 §7.6, RFC 9112 §6), for every mode: hop-by-hop fields
/// removed (with the fields the destination's <c>Connection</c> names), framing and persistence re-computed, and the
/// route's response transforms applied to a final response.
/// </summary>
internal static class ResponseHeadWriter
{
    /// <param name="writer">Where the head goes.</param>
    /// <param name="head">The destination's response head.</param>
    /// <param name="framing">How the response reaches the client.</param>
    /// <param name="transforms">The route's response transforms.</param>
    /// <param name="extraFields">Whole field lines added as they are (the session affinity's binding); empty for none.</param>
    public static void Write<TWriter>(ref BufferWriter<TWriter> writer, ResponseHead head, in ResponseFraming framing, ResponseTransforms transforms, ReadOnlySpan<byte> extraFields = default)
        where TWriter : IBufferWriter<byte>
    {
        WriteStartAndFields(ref writer, head, transforms);
        writer.Write(extraFields);
        if (framing.Body == BodyFraming.Chunked)
        {
            writer.Write("Transfer-Encoding: chunked\r\n"u8);
        }
        else if (head.Framing == BodyFraming.ContentLength && head.StatusCode != 204)
        {
            writer.Write("Content-Length: "u8);
            writer.WriteDecimal(head.ContentLength);
            writer.Write("\r\n"u8);
        }

        if (framing.Close)
        {
            writer.Write("Connection: close\r\n"u8);
        }
        else if (framing.Http10KeepAlive)
        {
            writer.Write("Connection: keep-alive\r\n"u8);
        }

        writer.Write("\r\n"u8);
    }

    /// <summary>An interim 1xx response (RFC 9110 §15.2): forwarded with its fields, no framing.</summary>
    public static void WriteInterim<TWriter>(ref BufferWriter<TWriter> writer, ResponseHead head)
        where TWriter : IBufferWriter<byte>
    {
        WriteStartAndFields(ref writer, head, ResponseTransforms.None);
        writer.Write("\r\n"u8);
    }

    /// <summary>
    /// A <c>101 Switching Protocols</c> that turns the connection into a tunnel (RFC 9110 §15.2.2): forwarded with its
    /// end-to-end fields, <c>Connection: upgrade</c> and its <c>Upgrade</c> fields, no framing.
    /// </summary>
    public static void WriteSwitchingProtocols<TWriter>(ref BufferWriter<TWriter> writer, ResponseHead head)
        where TWriter : IBufferWriter<byte>
    {
        WriteStartAndFields(ref writer, head, ResponseTransforms.None);
        writer.Write("Connection: upgrade\r\n"u8);
        var source = head.Source.Span;
        foreach (ref readonly var field in head.Fields)
        {
            if (field.Kind == FieldKind.Upgrade)
            {
                writer.Field("Upgrade"u8, field.Value(source));
            }
        }

        writer.Write("\r\n"u8);
    }

    private static void WriteStartAndFields<TWriter>(ref BufferWriter<TWriter> writer, ResponseHead head, ResponseTransforms transforms)
        where TWriter : IBufferWriter<byte>
    {
        writer.Write("HTTP/1.1 "u8);
        writer.WriteDecimal(head.StatusCode);
        writer.Write(" "u8);
        writer.Write(head.Reason);
        writer.Write("\r\n"u8);
        WriteFields(head, transforms, ref writer);
    }

    /// <summary>
    /// Gives <paramref name="sink"/> the fields of <paramref name="head"/> that reach the client, for every front end:
    /// hop-by-hop fields (with those <c>Connection</c> names) and <c>Content-Length</c> dropped (framing is the client
    /// protocol's own), then the route's response transforms applied.
    /// </summary>
    public static void WriteFields<TSink>(ResponseHead head, ResponseTransforms transforms, ref TSink sink)
        where TSink : IFieldSink, allows ref struct
    {
        var source = head.Source.Span;
        foreach (ref readonly var field in head.Fields)
        {
            if (!KnownFields.IsHopByHop(field.Kind) && field.Kind != FieldKind.ContentLength
                && (transforms.IsEmpty || !transforms.DropsField(field.Name(source), head.StatusCode)))
            {
                sink.Field(field.Name(source), field.Value(source));
            }
        }

        foreach (ref readonly var step in transforms.Headers.AsSpan())
        {
            if (step.Action != TransformAction.Remove && step.AppliesTo(head.StatusCode))
            {
                sink.Field(step.Name, step.Value);
            }
        }
    }
}
