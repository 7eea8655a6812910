namespace LLRP.Hosting;

/// <summary>
/// The names whose change can change what a settings file reads, each with the directory that holds it: the file's own
/// name, and when the file is a symbolic link, every link met on the way to what it points to and the name it ends at.
/// A Kubernetes ConfigMap volume is the common case: appsettings.json links to <c>..data/appsettings.json</c>, and an
/// update renames a new <c>..data</c> link over the old one, so the change is reported under <c>..data</c>'s name, in
/// the directory that holds appsettings.json, and the file it ends at is in the version's directory.
/// </summary>
internal static class SettingsFileLinks
{
    /// <summary>As the kernel's bound on the links followed to resolve one path.</summary>
    private const int MaxLinks = 40;

    public static IEnumerable<(string Directory, string Name)> NamesOf(string file)
    {
        var path = Path.GetFullPath(file);
        yield return Split(path);
        for (var followed = 0; followed < MaxLinks && LinkTarget(path) is { } target; followed++)
        {
            var current = Path.IsPathRooted(target) ? Path.GetPathRoot(target)! : Path.GetDirectoryName(path)!;
            var parts = target.Split('/', StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length == 0)
            {
                yield break;
            }

            for (var i = 0; i < parts.Length - 1; i++)
            {
                var next = Path.GetFullPath(Path.Combine(current, parts[i]));
                if (LinkTarget(next) is not null)
                {
                    yield return Split(next);
                    next = FinalTarget(next);
                }

                current = next;
            }

            path = Path.Combine(current, parts[^1]);
            yield return Split(path);
        }
    }

    private static (string Directory, string Name) Split(string path) => (Path.GetDirectoryName(path) ?? path, Path.GetFileName(path));

    /// <summary>What the link at <paramref name="path"/> holds, or null when it is no link (or cannot be read).</summary>
    private static string? LinkTarget(string path)
    {
        try
        {
            return new FileInfo(path).LinkTarget;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The directory the link at <paramref name="path"/> ends at through all its links, or the path itself when that cannot be resolved.</summary>
    private static string FinalTarget(string path)
    {
        try
        {
            return Directory.ResolveLinkTarget(path, returnFinalTarget: true)?.FullName ?? path;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return path;
        }
    }
}
