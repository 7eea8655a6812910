using System.Diagnostics;

namespace LLRP.Downstream;

/// <summary>
/// A wait of at least a duration as <see cref="Stopwatch"/> measures it. <see cref="Task.Delay(TimeSpan)"/> alone can end
/// early by up to its timer's granularity: its timers run on <see cref="Environment.TickCount64"/>, a coarse clock (a few
/// milliseconds on Linux): a 250 ms delay was measured at 249.78 ms, a 3 ms one at 1.2 ms.
/// </summary>
internal static class MinimumDelay
{
    public static async Task WaitAsync(TimeSpan duration)
    {
        var start = Stopwatch.GetTimestamp();
        for (var remaining = duration; remaining > TimeSpan.Zero; remaining = duration - Stopwatch.GetElapsedTime(start))
        {
            // Whole milliseconds, at least one: a shorter delay completes at once and the loop would spin.
            await Task.Delay(TimeSpan.FromMilliseconds(Math.Max(1, Math.Ceiling(remaining.TotalMilliseconds))));
        }
    }
}
