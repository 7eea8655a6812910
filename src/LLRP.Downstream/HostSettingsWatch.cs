namespace LLRP.Downstream;

/// <summary>
/// The host's own watch of the settings files, turned off. It watches the content root with every directory below it (one
/// inotify watch each), so each write anywhere below the working directory would be handled in the process, and a start
/// from a large directory would take tens of seconds. Shared by the bundled origin, which reads its settings once, and the
/// proxy, whose hot reload watches the settings files' directory alone.
/// </summary>
public static class HostSettingsWatch
{
    /// <summary><paramref name="args"/> with the host's key that turns its watch off, last, so that it wins.</summary>
    public static string[] Off(string[] args) => [.. args, "--hostBuilder:reloadConfigOnChange=false"];
}
