using LLRP.Bench;
using LLRP.Bench.Contenders;
using LLRP.Bench.Load;

namespace LLRP.Tests.Benchmarks;

/// <summary>The contenders of <c>--baseline-ref</c>: LLRP as built at the revision, whichever legs a shape has.</summary>
public sealed class ContenderCatalogTests
{
    [Theory]
    [InlineData("llrp-raw-pooled")]
    [InlineData("llrp-raw-pooled-h2client")]
    public void Create_BaselineRef_RunsTheRevisionsBuildOnEveryLeg(string name)
    {
        var root = Path.Combine(Path.GetTempPath(), "llrp-catalog-" + Guid.NewGuid().ToString("N"));
        var options = new BenchOptions { RepositoryRoot = root, ResultsDirectory = Path.Combine(root, "results"), BaselineRef = "main" };
        var revision = Path.Combine(options.PublishRoot, "LLRP@main", "LLRP.dll");

        var contender = Assert.Single(ContenderCatalog.Create(options, 9000), c => c.Name == name + "@main");

        Assert.Equal(revision, contender.ArgumentsFor([9001], new Legs(false, false, ClientHttp2: false, OriginHttp2: false))[0]);
        Assert.Equal(revision, contender.ArgumentsFor([9001], new Legs(false, false, ClientHttp2: true, OriginHttp2: true))[0]);
    }
}
