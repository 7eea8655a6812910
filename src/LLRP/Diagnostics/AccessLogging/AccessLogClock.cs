using System.Globalization;
using System.Text;

namespace LLRP.Diagnostics.AccessLogging;

/// <summary>nginx's <c>$time_local</c> in UTC (<c>25/Nov/2026:13:26:46 +0000</c>), formatted once a second.</summary>
internal static class AccessLogClock
{
    private static Stamp _current = new(-1, []);

    /// <summary>The text of <paramref name="time"/>'s second.</summary>
    public static ReadOnlySpan<byte> TimeLocal(DateTime time)
    {
        var second = time.Ticks / TimeSpan.TicksPerSecond;
        var current = Volatile.Read(ref _current);
        if (current.Second != second)
        {
            current = new Stamp(second, Encoding.ASCII.GetBytes(time.ToString("dd/MMM/yyyy:HH:mm:ss +0000", CultureInfo.InvariantCulture)));
            Volatile.Write(ref _current, current);
        }

        return current.Text;
    }

    private sealed record Stamp(long Second, byte[] Text);
}
