namespace LLRP.Hosting;

/// <summary>
/// Why a settings file could not be read again when it changed (broken JSON, say), as one line with its file, line and
/// position: kept by the file's configuration source until <see cref="RoutingReloader"/> logs it and keeps the current
/// routes and clusters.
/// </summary>
internal sealed class SettingsReloadErrors
{
    private string? _last;

    public void Report(string error) => Volatile.Write(ref _last, error);

    /// <summary>The error reported since the last call, or null.</summary>
    public string? Take() => Interlocked.Exchange(ref _last, null);
}
