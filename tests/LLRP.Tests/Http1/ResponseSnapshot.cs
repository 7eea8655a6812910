using System.Buffers;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>Everything <see cref="ResponseHeadParser"/> reports about one response, as a value that can be compared across splits.</summary>
internal sealed record ResponseSnapshot(
    int Consumed,
    int StatusCode,
    string Reason,
    bool IsHttp10,
    bool IsInterim,
    BodyFraming Framing,
    long ContentLength,
    bool IsPersistent,
    string Fields)
{
    public const int MaxHeadSize = 64 * 1024;

    public static ResponseSnapshot Parse(ReadOnlySequence<byte> input, int maxHeadSize = MaxHeadSize)
    {
        var head = new ResponseHead();
        Assert.True(ResponseHeadParser.TryParse(input, head, maxHeadSize, out var consumed), "the head is complete");
        return From(head, consumed);
    }

    public static ResponseSnapshot From(ResponseHead head, int consumed)
    {
        var source = head.Source.Span;
        var fields = new List<string>();
        foreach (var field in head.Fields)
        {
            fields.Add($"{Text.Of(field.Name(source))}: {Text.Of(field.Value(source))} [{field.Kind}]");
        }

        return new ResponseSnapshot(
            consumed,
            head.StatusCode,
            Text.Of(head.Reason),
            head.IsHttp10,
            head.IsInterim,
            head.Framing,
            head.ContentLength,
            head.IsPersistent,
            string.Join("\n", fields));
    }

    /// <summary>Parses a complete head cut every possible way; returns the one result all splits agree on.</summary>
    public static ResponseSnapshot EverySplit(string message, int maxHeadSize = MaxHeadSize)
        => Segmented.SameForEverySplit(Text.Bytes(message), input => Parse(input, maxHeadSize));

    /// <summary>Asserts that every split of the message is rejected for the same reason, and returns it.</summary>
    public static RejectionReason RejectEverySplit(string message, int maxHeadSize = MaxHeadSize)
        => Segmented.SameForEverySplit(
            Text.Bytes(message),
            input => Assert.Throws<HttpMessageException>(() => ResponseHeadParser.TryParse(input, new ResponseHead(), maxHeadSize, out _)).Reason);
}
