using System.Diagnostics;
using LLRP.Bench.Reports;

namespace LLRP.Bench.Running;

/// <summary>
/// One line per step on stderr: elapsed time, the step, and the time left, estimated from the planned
/// durations of the remaining steps, scaled (once a tenth is done) by how the finished ones kept to plan.
/// </summary>
/// <param name="planned">The sum of every step's planned duration.</param>
public sealed class ProgressReporter(TimeSpan planned)
{
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private TimeSpan _plannedDone;

    /// <param name="step">What starts now.</param>
    /// <param name="stepPlanned">How long it is planned to take.</param>
    public void Report(string step, TimeSpan stepPlanned)
    {
        var remaining = planned - _plannedDone;
        if (_plannedDone > planned * 0.1)
        {
            remaining *= Math.Clamp(_clock.Elapsed / _plannedDone, 0.5, 3);
        }

        Console.Error.WriteLine($"[{Units.Duration(_clock.Elapsed)}] {step} (~{Units.Duration(remaining)} left)");
        _plannedDone += stepPlanned;
    }
}
