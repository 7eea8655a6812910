using System.Diagnostics.Metrics;
using LLRP.FunctionalTests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// Records what one proxy's <c>LLRP</c> meter measures. Tests run in parallel, each proxy with its own meter from its own
/// <see cref="IMeterFactory"/>, and a factory is the <see cref="Meter.Scope"/> of every meter it creates: matching the
/// scope keeps other proxies' measurements out. Start it before the first client connects, so up-down counters read from zero.
/// </summary>
public sealed class ProxyMeterRecorder : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly List<(string Instrument, double Value, KeyValuePair<string, object?>[] Tags)> _measurements = [];
    private readonly object _observing = new();

    public ProxyMeterRecorder(HostedApp proxy)
    {
        var scope = proxy.Services.GetRequiredService<IMeterFactory>();
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "LLRP" && ReferenceEquals(instrument.Meter.Scope, scope))
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<int>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.Start();
    }

    /// <summary>The sum of every measurement of <paramref name="instrument"/>: a counter's total, an up-down counter's current value.</summary>
    public long Sum(string instrument) => (long)Measurements(instrument).Sum(measurement => measurement.Value);

    /// <summary>The sum of the measurements of <paramref name="instrument"/> tagged <paramref name="tag"/> = <paramref name="value"/>.</summary>
    public long Sum(string instrument, string tag, object value) =>
        (long)Measurements(instrument)
            .Where(measurement => measurement.Tags.Any(pair => pair.Key == tag && Equals(pair.Value, value)))
            .Sum(measurement => measurement.Value);

    /// <summary>
    /// Reads observable gauge <paramref name="instrument"/> now: the sum of what its callback reports over every tag set,
    /// or over those tagged <paramref name="tag"/> = <paramref name="value"/> when given.
    /// </summary>
    public long Observe(string instrument, string? tag = null, string? value = null)
    {
        lock (_observing)
        {
            int first;
            lock (_measurements)
            {
                first = _measurements.Count;
            }

            _listener.RecordObservableInstruments();
            lock (_measurements)
            {
                return (long)_measurements.Skip(first)
                    .Where(measurement => measurement.Instrument == instrument)
                    .Where(measurement => tag is null || measurement.Tags.Any(pair => pair.Key == tag && Equals(pair.Value, value)))
                    .Sum(measurement => measurement.Value);
            }
        }
    }

    /// <summary>How many measurements <paramref name="instrument"/> recorded (a histogram's count).</summary>
    public int Count(string instrument) => Measurements(instrument).Count;

    /// <summary>Every measurement of <paramref name="instrument"/> as "value tag=value ...", for failure messages.</summary>
    public string Describe(string instrument) => string.Join("; ", Measurements(instrument).Select(measurement =>
        string.Join(' ', measurement.Tags.Select(pair => $"{pair.Key}={pair.Value}").Prepend(measurement.Value.ToString("R", null)))));

    /// <summary>Waits until <see cref="Sum(string)"/> of <paramref name="instrument"/> is <paramref name="expected"/>.</summary>
    public async Task WaitForSumAsync(string instrument, long expected)
    {
        try
        {
            await Deadline.UntilAsync(() => Sum(instrument) == expected, $"{instrument} reaching {expected}");
        }
        catch (TimeoutException e)
        {
            throw new TimeoutException($"{e.Message} It is {Sum(instrument)}: {Describe(instrument)}", e);
        }
    }

    public void Dispose() => _listener.Dispose();

    private void Record(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        lock (_measurements)
        {
            _measurements.Add((instrument.Name, value, tags.ToArray()));
        }
    }

    private List<(string Instrument, double Value, KeyValuePair<string, object?>[] Tags)> Measurements(string instrument)
    {
        lock (_measurements)
        {
            return _measurements.Where(measurement => measurement.Instrument == instrument).ToList();
        }
    }
}
