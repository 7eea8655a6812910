using YamlDotNet.RepresentationModel;

namespace LLRP.Tests.Benchmarks;

/// <summary>
/// crank's <c>benchmarks.yml</c>: every scenario runs jobs that exist, built from folders and projects that exist, for the
/// framework the projects build with, every server started from a script says when it is ready, every server follows the
/// scheme variables, and a job given the certificate makes it first.
/// </summary>
public class BenchmarksYmlTests
{
    private static readonly string RepositoryRoot = FindRepositoryRoot();

    private static readonly YamlMappingNode Root = Load();

    [Fact]
    public void Scenarios_AreThoseOfTheOriginalLlrp()
    {
        var scenarios = Mapping(Root, "scenarios").Children.Keys.Select(key => ((YamlScalarNode)key).Value).ToHashSet();

        Assert.Superset(
            new HashSet<string?> { "llrp-llhttp", "llrp-httpclient", "llrp-httpclientwithcontext", "llrp-yarp", "yarp", "httpclientproxy", "haproxy", "nginx" },
            scenarios);
    }

    [Fact]
    public void Scenarios_ReferenceDefinedJobs()
    {
        var jobs = Mapping(Root, "jobs");
        foreach (var (name, scenario) in Mapping(Root, "scenarios").Children)
        {
            foreach (var (role, step) in ((YamlMappingNode)scenario).Children)
            {
                var job = Scalar((YamlMappingNode)step, "job");
                Assert.True(jobs.Children.ContainsKey(new YamlScalarNode(job)), $"scenario {name}, {role}: job '{job}' is not defined");
            }
        }
    }

    /// <summary>
    /// crank's agent reads a job's target framework only from the project file's own <c>TargetFramework</c> and otherwise
    /// falls back to its default (net8.0), so a .NET job must say the framework our Directory.Build.props gives it.
    /// </summary>
    [Fact]
    public void DotNetJobs_NameTheFrameworkTheirProjectBuildsWith()
    {
        foreach (var (name, job) in Jobs())
        {
            if (ProjectPath(job) is not { } project || !File.Exists(project))
            {
                continue;
            }

            var frameworks = ProjectTargetFrameworks.Of(project, RepositoryRoot);
            Assert.True(frameworks.Count > 0, $"job {name}: no TargetFramework found for {project} or the Directory.Build.props above it");
            var framework = OptionalScalar(job, "framework");
            Assert.True(
                framework is not null && frameworks.Contains(framework),
                $"job {name}: framework {framework ?? "missing (crank falls back to net8.0)"}, but {project} builds for {string.Join(";", frameworks)}");
        }
    }

    /// <summary>Without a ready text crank polls the port on its --hostname and counts even a failed attempt as ready.</summary>
    [Fact]
    public void ScriptJobs_SayWhenTheyAreReady()
    {
        foreach (var (name, job) in Jobs())
        {
            var script = OptionalScalar(job, "executable") is not null || OptionalScalar(job, "noBuild") == "true";
            if (script && OptionalScalar(job, "isConsoleApp") != "true")
            {
                Assert.False(string.IsNullOrWhiteSpace(OptionalScalar(job, "readyStateText")), $"job {name}: a server started from a script needs a readyStateText");
            }
        }
    }

    /// <summary>crank's controller makes every job self-contained after reading jobs and scenarios: only a profile (or the command line) says otherwise.</summary>
    [Fact]
    public void Profiles_RunDotNetJobsOnTheAgentsRuntime()
    {
        foreach (var (name, profile) in Mapping(Root, "profiles").Children)
        {
            Assert.True(OptionalScalar((YamlMappingNode)profile, "selfContained") == "false", $"profile {name}: selfContained is not false");
        }
    }

    [Fact]
    public void Jobs_BuildFromExistingFoldersProjectsAndScripts()
    {
        foreach (var (name, job) in Jobs())
        {
            var folder = SourceFolder(job);
            Assert.True(Directory.Exists(folder), $"job {name}: localFolder {folder} does not exist");

            if (ProjectPath(job) is { } project)
            {
                Assert.True(File.Exists(project), $"job {name}: project {project} does not exist");
            }
            else
            {
                var script = Path.Combine(folder, Scalar(job, "executable"));
                Assert.True(File.Exists(script), $"job {name}: executable {script} does not exist");
                Assert.True(OperatingSystem.IsWindows() || (File.GetUnixFileMode(script) & UnixFileMode.UserExecute) != 0, $"job {name}: {script} is not executable");
            }
        }
    }

    /// <summary>serverScheme and downstreamScheme reach every job that serves or reaches those ports, as in aspnet/Benchmarks.</summary>
    [Fact]
    public void Jobs_FollowTheSchemeVariables()
    {
        foreach (var (name, job) in Jobs())
        {
            var arguments = OptionalScalar(job, "arguments") ?? "";
            Assert.True(!arguments.Contains("{{serverPort}}", StringComparison.Ordinal) || arguments.Contains("{{serverScheme}}", StringComparison.Ordinal), $"job {name}: serverPort without serverScheme");
            Assert.True(!arguments.Contains("{{downstreamPort}}", StringComparison.Ordinal) || arguments.Contains("{{downstreamScheme}}", StringComparison.Ordinal), $"job {name}: downstreamPort without downstreamScheme");
        }
    }

    /// <summary>
    /// crank uploads the repository, so a .NET job that is given tls/cert.pfx makes it on its agent in its beforeScript,
    /// which the agent runs in the project's folder (the app's working directory).
    /// </summary>
    [Fact]
    public void DotNetJobsGivenTheCertificate_MakeItBeforeStarting()
    {
        foreach (var (name, job) in Jobs())
        {
            if (ProjectPath(job) is not { } project || !(OptionalScalar(job, "arguments") ?? "").Contains("tls/cert.pfx", StringComparison.Ordinal))
            {
                continue;
            }

            var script = (OptionalScalar(job, "beforeScript") ?? "").Split(' ');
            Assert.True(script is ["bash", _, "--dir", "tls", ..], $"job {name}: beforeScript should be 'bash <path to scripts/tls-cert.sh> --dir tls …'");
            var path = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(project)!, script[1]));
            Assert.Equal(Path.Combine(RepositoryRoot, "scripts", "tls-cert.sh"), path);
        }
    }

    [Fact]
    public void Profiles_PlaceEveryRole()
    {
        foreach (var profile in new[] { "local", "lab" })
        {
            var jobs = Mapping(Mapping(Mapping(Root, "profiles"), profile), "jobs");
            foreach (var role in new[] { "downstream", "application", "load" })
            {
                var endpoints = (YamlSequenceNode)Mapping(jobs, role).Children[new YamlScalarNode("endpoints")];
                Assert.NotEmpty(endpoints.Children);
            }
        }
    }

    private static YamlMappingNode Load()
    {
        var stream = new YamlStream();
        using var reader = new StreamReader(Path.Combine(RepositoryRoot, "benchmarks.yml"));
        stream.Load(reader);
        return (YamlMappingNode)stream.Documents[0].RootNode;
    }

    private static IEnumerable<(string Name, YamlMappingNode Job)> Jobs()
        => Mapping(Root, "jobs").Children.Select(entry => (((YamlScalarNode)entry.Key).Value!, (YamlMappingNode)entry.Value));

    private static string SourceFolder(YamlMappingNode job)
        => Path.GetFullPath(Path.Combine(RepositoryRoot, Scalar(Mapping(job, "source"), "localFolder")));

    /// <summary>The full path of the project a job builds; null for a job that runs a script.</summary>
    private static string? ProjectPath(YamlMappingNode job)
        => OptionalScalar(Mapping(job, "source"), "project") is { } project ? Path.Combine(SourceFolder(job), project) : null;

    private static YamlMappingNode Mapping(YamlMappingNode node, string key) => (YamlMappingNode)node.Children[new YamlScalarNode(key)];

    private static string Scalar(YamlMappingNode node, string key) => ((YamlScalarNode)node.Children[new YamlScalarNode(key)]).Value!;

    private static string? OptionalScalar(YamlMappingNode node, string key)
        => node.Children.TryGetValue(new YamlScalarNode(key), out var value) ? ((YamlScalarNode)value).Value : null;

    private static string FindRepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "LLRP.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("LLRP.sln not found above " + AppContext.BaseDirectory);
    }
}
