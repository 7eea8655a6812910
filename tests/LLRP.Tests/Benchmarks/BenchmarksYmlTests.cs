using YamlDotNet.RepresentationModel;

namespace LLRP.Tests.Benchmarks;

/// <summary>crank's <c>benchmarks.yml</c>: every scenario runs jobs that exist, built from folders and projects that exist.</summary>
public class BenchmarksYmlTests
{
    /// <summary>Needs the Yarp.ReverseProxy package, which the package feed cannot restore (its dependency System.IO.Hashing is missing).</summary>
    private const string BlockedYarpProject = "src/Baselines/YarpProxy/YarpProxy.csproj";

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

    [Fact]
    public void Jobs_BuildFromExistingFoldersProjectsAndScripts()
    {
        foreach (var (name, node) in Mapping(Root, "jobs").Children)
        {
            var job = (YamlMappingNode)node;
            var source = Mapping(job, "source");
            var folder = Path.GetFullPath(Path.Combine(RepositoryRoot, Scalar(source, "localFolder")));
            Assert.True(Directory.Exists(folder), $"job {name}: localFolder {folder} does not exist");

            if (source.Children.TryGetValue(new YamlScalarNode("project"), out var project))
            {
                var path = ((YamlScalarNode)project).Value!;
                Assert.True(path == BlockedYarpProject || File.Exists(Path.Combine(folder, path)), $"job {name}: project {path} does not exist");
            }
            else
            {
                var script = Path.Combine(folder, Scalar(job, "executable"));
                Assert.True(File.Exists(script), $"job {name}: executable {script} does not exist");
                Assert.True(OperatingSystem.IsWindows() || (File.GetUnixFileMode(script) & UnixFileMode.UserExecute) != 0, $"job {name}: {script} is not executable");
            }
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

    private static YamlMappingNode Mapping(YamlMappingNode node, string key) => (YamlMappingNode)node.Children[new YamlScalarNode(key)];

    private static string Scalar(YamlMappingNode node, string key) => ((YamlScalarNode)node.Children[new YamlScalarNode(key)]).Value!;

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
