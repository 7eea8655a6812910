using System.Buffers;
using LLRP.Routing;
using LLRP.Diagnostics;
using LLRP.Http1;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Http1;

/// <summary>Runs <see cref="RequestHeadParser"/> over every split of a request and checks that the outcome never depends on the split.</summary>
internal static class RequestParsing
{
    /// <summary>Kestrel's limits, the proxy's defaults.</summary>
    public static readonly RequestLimits DefaultLimits = new(8 * 1024, 32 * 1024, 100);

    public static RequestSnapshot Parse(ReadOnlySequence<byte> input, RequestLimits limits)
    {
        var head = new RequestHead();
        Assert.True(RequestHeadParser.TryParse(input, head, limits, out var consumed), "the head is complete");
        return RequestSnapshot.From(head, consumed);
    }

    /// <summary>Parses a complete head cut every possible way; returns the one result all splits agree on.</summary>
    public static RequestSnapshot EverySplit(string message) => EverySplit(message, DefaultLimits);

    public static RequestSnapshot EverySplit(string message, RequestLimits limits)
        => Segmented.SameForEverySplit(Text.Bytes(message), input => Parse(input, limits));

    /// <summary>Asserts that every split of the message is rejected for the same reason, and returns it.</summary>
    public static RejectionReason RejectEverySplit(string message) => RejectEverySplit(message, DefaultLimits);

    public static RejectionReason RejectEverySplit(string message, RequestLimits limits)
        => Segmented.SameForEverySplit(
            Text.Bytes(message),
            input => Assert.Throws<HttpMessageException>(() => RequestHeadParser.TryParse(input, new RequestHead(), limits, out _)).Reason);

    /// <summary>Asserts that every split is rejected for <paramref name="expected"/>, and that it maps to <paramref name="status"/>.</summary>
    public static void AssertRejected(string message, RejectionReason expected, int status)
    {
        var reason = RejectEverySplit(message);

        Assert.Equal(expected, reason);
        Assert.Equal(status, ErrorPolicy.StatusCode(reason));
    }
}
