using LLRP.Diagnostics;
using LLRP.Downstream;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.FileProviders;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace LLRP.Hosting;

/// <summary>
/// Hot reload's watch on the settings files (appsettings.json and appsettings.{environment}.json): one watch of each
/// directory that holds one, never of the directories below it, reporting those files' names only; the configuration
/// is read again <see cref="ReloadDelay"/> after the last change reported (an editor's save can be several writes).
/// The host's own watch is off (<see cref="HostSettingsWatch"/>): it watches the content root's whole tree, one inotify
/// watch per directory, so a write anywhere below the working directory (a log, a build) woke the proxy, and from a large
/// working directory the watch took tens of seconds to set up.
/// </summary>
internal sealed class SettingsFileWatcher(IConfigurationRoot configuration, IReadOnlyList<string> files, ILogger<SettingsFileWatcher> logger)
    : IHostedService, IDisposable
{
    /// <summary>As the host's file configuration sources wait before reading a changed file again.</summary>
    public static readonly TimeSpan ReloadDelay = TimeSpan.FromMilliseconds(250);

    private readonly List<FileSystemWatcher> _watchers = [];
    private readonly Timer _reload = new(_ => Reload(configuration, logger));

    /// <summary>The full paths of the JSON settings files <paramref name="configuration"/> reads from a physical file provider.</summary>
    public static IReadOnlyList<string> FilesOf(IConfigurationBuilder configuration)
        => [.. configuration.Sources.OfType<FileConfigurationSource>()
            .Select(source => source is { FileProvider: PhysicalFileProvider provider, Path: { } path } ? Path.GetFullPath(Path.Combine(provider.Root, path)) : null)
            .OfType<string>()];

    public Task StartAsync(CancellationToken cancellationToken)
    {
        foreach (var directory in files.GroupBy(file => Path.GetDirectoryName(file)!))
        {
            try
            {
                var watcher = new FileSystemWatcher(directory.Key) { IncludeSubdirectories = false };
                foreach (var file in directory)
                {
                    watcher.Filters.Add(Path.GetFileName(file));
                }

                watcher.Changed += (_, _) => Changed();
                watcher.Created += (_, _) => Changed();
                watcher.Deleted += (_, _) => Changed();
                watcher.Renamed += (_, _) => Changed();
                watcher.Error += (_, _) => Changed();
                watcher.EnableRaisingEvents = true;
                _watchers.Add(watcher);
            }
            catch (Exception e) when (e is IOException or ArgumentException or UnauthorizedAccessException)
            {
                ProxyLog.SettingsNotWatched(logger, directory.Key, e.Message);
            }
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        foreach (var watcher in _watchers)
        {
            watcher.EnableRaisingEvents = false;
        }

        _reload.Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        return Task.CompletedTask;
    }

    public void Dispose()
    {
        foreach (var watcher in _watchers)
        {
            watcher.Dispose();
        }

        _reload.Dispose();
    }

    private void Changed() => _reload.Change(ReloadDelay, Timeout.InfiniteTimeSpan);

    private static void Reload(IConfigurationRoot configuration, ILogger logger)
    {
        try
        {
            configuration.Reload();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The file could not be opened (a JSON error is the sources' own, reported by RoutingReloader): the next
            // change reported reads it again.
            ProxyLog.RoutingReloadRefused(logger, e.Message);
        }
        catch (ObjectDisposedException)
        {
            // A change reported as the proxy stopped: its configuration is gone, and nothing is left to reload.
        }
    }
}
