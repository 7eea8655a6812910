using System.Globalization;
using System.Text;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>nginx's <c>$time_local</c> in UTC (<c>25/Nov/2026:13:26:46 +0000</c>), formatted once a second.</summary>
internal static class AccessLogClock
{
    /// <summary>The second (in ticks ÷ ticks per second) and its text, swapped whole so that a reader never pairs one with the other's.</summary>
    private static Tuple<long, byte[]> _current = Tuple.Create(-1L, Array.Empty<byte>());

    /// <summary>The text of <paramref name="time"/>'s second.</summary>
    public static ReadOnlySpan<byte> TimeLocal(DateTime time)
    {
        var second = time.Ticks / TimeSpan.TicksPerSecond;
        var current = Volatile.Read(ref _current);
        if (current.Item1 != second)
        {
            current = Tuple.Create(second, Encoding.ASCII.GetBytes(time.ToString("dd/MMM/yyyy:HH:mm:ss +0000", CultureInfo.InvariantCulture)));
            Volatile.Write(ref _current, current);
        }

        return current.Item2;
    }
}
