using BenchmarkDotNet.Running;

namespace LLRP.Microbenchmarks;

public static class BenchmarkProgram
{
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(BenchmarkProgram).Assembly).Run(args);
}
