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
/// A settings file that is a symbolic link is watched through its links too (<see cref="SettingsFileLinks"/>): the
/// directory of each link on the way, for the link's name, and the directory the file ends in. The links are followed
/// again before each reload, since the change may have pointed them elsewhere (a Kubernetes ConfigMap's update).
/// The host's own watch is off (<see cref="HostSettingsWatch"/>): it watches the content root's whole tree, one inotify
/// watch per directory, so a write anywhere below the working directory (a log, a build) woke the proxy, and from a large
/// working directory the watch took tens of seconds to set up.
/// </summary>
internal sealed class SettingsFileWatcher : IHostedService, IDisposable
{
    /// <summary>As the host's file configuration sources wait before reading a changed file again.</summary>
    public static readonly TimeSpan ReloadDelay = TimeSpan.FromMilliseconds(250);

    private readonly IConfigurationRoot _configuration;
    private readonly IReadOnlyList<string> _files;
    private readonly ILogger<SettingsFileWatcher> _logger;
    private readonly Lock _sync = new();

    /// <summary>The watch of each directory, by its path, with the names it reports (distinct, in ordinal order).</summary>
    private readonly Dictionary<string, (FileSystemWatcher Watcher, string[] Names)> _watchers = new(StringComparer.Ordinal);
    private readonly Timer _reload;
    private bool _stopped;

    public SettingsFileWatcher(IConfigurationRoot configuration, IReadOnlyList<string> files, ILogger<SettingsFileWatcher> logger)
    {
        (_configuration, _files, _logger) = (configuration, files, logger);
        _reload = new Timer(static state => ((SettingsFileWatcher)state!).Reload(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>The full paths of the JSON settings files <paramref name="configuration"/> reads from a physical file provider.</summary>
    public static IReadOnlyList<string> FilesOf(IConfigurationBuilder configuration)
        => [.. configuration.Sources.OfType<FileConfigurationSource>()
            .Select(source => source is { FileProvider: PhysicalFileProvider provider, Path: { } path } ? Path.GetFullPath(Path.Combine(provider.Root, path)) : null)
            .OfType<string>()];

    public Task StartAsync(CancellationToken cancellationToken)
    {
        lock (_sync)
        {
            Watch();
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        lock (_sync)
        {
            _stopped = true;
            foreach (var (watcher, _) in _watchers.Values)
            {
                watcher.EnableRaisingEvents = false;
            }
        }

        _reload.Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        return Task.CompletedTask;
    }

    public void Dispose()
    {
        lock (_sync)
        {
            _stopped = true;
            foreach (var (watcher, _) in _watchers.Values)
            {
                watcher.Dispose();
            }

            _watchers.Clear();
        }

        _reload.Dispose();
    }

    /// <summary>Watches each directory for the names the settings files lead to now, keeping the watches that stay the same.</summary>
    private void Watch()
    {
        var wanted = _files.SelectMany(SettingsFileLinks.NamesOf)
            .GroupBy(name => name.Directory, name => name.Name, StringComparer.Ordinal)
            .ToDictionary(directory => directory.Key, directory => directory.Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToArray(), StringComparer.Ordinal);
        foreach (var (directory, (watcher, names)) in _watchers.ToArray())
        {
            if (!wanted.TryGetValue(directory, out var now) || !now.SequenceEqual(names, StringComparer.Ordinal))
            {
                watcher.Dispose();
                _watchers.Remove(directory);
            }
        }

        foreach (var (directory, names) in wanted)
        {
            if (_watchers.ContainsKey(directory))
            {
                continue;
            }

            try
            {
                var watcher = new FileSystemWatcher(directory) { IncludeSubdirectories = false };
                foreach (var name in names)
                {
                    watcher.Filters.Add(name);
                }

                watcher.Changed += (_, _) => Changed();
                watcher.Created += (_, _) => Changed();
                watcher.Deleted += (_, _) => Changed();
                watcher.Renamed += (_, _) => Changed();
                watcher.Error += (_, _) => Changed();
                watcher.EnableRaisingEvents = true;
                _watchers.Add(directory, (watcher, names));
            }
            catch (Exception e) when (e is IOException or ArgumentException or UnauthorizedAccessException)
            {
                ProxyLog.SettingsNotWatched(_logger, directory, e.Message);
            }
        }
    }

    private void Changed() => _reload.Change(ReloadDelay, Timeout.InfiniteTimeSpan);

    private void Reload()
    {
        lock (_sync)
        {
            if (_stopped)
            {
                return;
            }

            Watch();
            try
            {
                _configuration.Reload();
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // The file could not be opened (a JSON error is the sources' own, reported by RoutingReloader): the next
                // change reported reads it again.
                ProxyLog.RoutingReloadRefused(_logger, e.Message);
            }
            catch (ObjectDisposedException)
            {
                // The host went away without stopping (a start that failed): its configuration is gone, and nothing is left to reload.
            }
        }
    }
}
