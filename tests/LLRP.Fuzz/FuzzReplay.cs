namespace LLRP.Fuzz;

/// <summary>Runs a target once over each input file, outside afl-fuzz: how a finding is reproduced.</summary>
internal static class FuzzReplay
{
    public static int Run(Action<byte[]> target, string path)
    {
        var files = Directory.Exists(path)
            ? Directory.EnumerateFiles(path).Order(StringComparer.Ordinal).ToArray()
            : [path];
        foreach (var file in files)
        {
            try
            {
                target(File.ReadAllBytes(file));
            }
            catch (Exception e)
            {
                Console.Error.WriteLine($"{file}: {e}");
                return 1;
            }
        }

        Console.WriteLine($"{files.Length} inputs passed");
        return 0;
    }
}
