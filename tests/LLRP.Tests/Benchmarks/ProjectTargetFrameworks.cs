using System.Xml.Linq;

namespace LLRP.Tests.Benchmarks;

/// <summary>
/// The target frameworks a project builds with, read the way this repository sets them: the project's own
/// <c>TargetFramework</c>/<c>TargetFrameworks</c>, else the nearest <c>Directory.Build.props</c> above it that defines one
/// (each of ours imports its parent first, so the nearer definition wins).
/// </summary>
internal static class ProjectTargetFrameworks
{
    /// <summary>The frameworks of <paramref name="projectPath"/>; empty when neither it nor a props file up to <paramref name="repositoryRoot"/> says.</summary>
    public static IReadOnlyList<string> Of(string projectPath, string repositoryRoot)
    {
        var frameworks = Read(projectPath);
        var root = Path.GetFullPath(repositoryRoot);
        for (var directory = Path.GetDirectoryName(Path.GetFullPath(projectPath));
             frameworks.Count == 0 && directory is not null && directory.StartsWith(root, StringComparison.Ordinal);
             directory = Path.GetDirectoryName(directory))
        {
            var props = Path.Combine(directory, "Directory.Build.props");
            if (File.Exists(props))
            {
                frameworks = Read(props);
            }
        }

        return frameworks;
    }

    private static IReadOnlyList<string> Read(string msbuildFile)
    {
        var properties = XDocument.Load(msbuildFile).Root!.Elements("PropertyGroup").Elements().ToList();
        var value = properties.LastOrDefault(element => element.Name.LocalName == "TargetFramework")?.Value
            ?? properties.LastOrDefault(element => element.Name.LocalName == "TargetFrameworks")?.Value;
        return value is null ? [] : value.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    }
}
