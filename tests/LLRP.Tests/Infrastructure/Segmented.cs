using System.Buffers;
using LLRP.Testing;
using Xunit.Sdk;

namespace LLRP.Tests.Infrastructure;

/// <summary>Cuts a message into segments at every possible place, so a parser is proven independent of how its input arrived.</summary>
internal static class Segmented
{
    /// <summary>Messages up to this length are also cut at every pair of places.</summary>
    private const int PairSplitLimit = 200;

    /// <summary>A sequence over copies of <paramref name="bytes"/>, one segment per piece between the ascending <paramref name="splitPoints"/>.</summary>
    public static ReadOnlySequence<byte> Create(byte[] bytes, params int[] splitPoints)
    {
        if (splitPoints.Length == 0)
        {
            return new ReadOnlySequence<byte>(bytes.ToArray());
        }

        int[] bounds = [0, .. splitPoints, bytes.Length];
        var first = new BufferSegment(bytes[bounds[0]..bounds[1]], 0);
        var last = first;
        for (var i = 1; i < bounds.Length - 1; i++)
        {
            last = last.Append(bytes[bounds[i]..bounds[i + 1]]);
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    /// <summary>No split, then every single split point, then (for short messages, when allowed) every pair.</summary>
    public static IEnumerable<int[]> SplitPoints(int length, int maxSplitPoints = 2)
    {
        yield return [];
        for (var a = 1; a < length; a++)
        {
            yield return [a];
        }

        if (maxSplitPoints < 2 || length > PairSplitLimit)
        {
            yield break;
        }

        for (var a = 1; a < length; a++)
        {
            for (var b = a + 1; b < length; b++)
            {
                yield return [a, b];
            }
        }
    }

    /// <summary>Runs <paramref name="check"/> over every split of <paramref name="message"/>; a failure names the split.</summary>
    public static void ForEachSplit(byte[] message, Action<ReadOnlySequence<byte>> check, int maxSplitPoints = 2)
    {
        foreach (var points in SplitPoints(message.Length, maxSplitPoints))
        {
            try
            {
                check(Create(message, points));
            }
            catch (Exception e)
            {
                throw new XunitException($"Split at [{string.Join(", ", points)}]: {e.Message}", e);
            }
        }
    }

    /// <summary>Applies <paramref name="parse"/> to every split, asserts every result equals the unsplit one, and returns it.</summary>
    public static T SameForEverySplit<T>(byte[] message, Func<ReadOnlySequence<byte>, T> parse, int maxSplitPoints = 2)
    {
        var expected = parse(Create(message));
        ForEachSplit(message, input => Assert.Equal(expected, parse(input)), maxSplitPoints);
        return expected;
    }
}
