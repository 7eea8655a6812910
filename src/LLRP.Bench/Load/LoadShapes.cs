namespace LLRP.Bench.Load;

/// <summary>The shapes of DESIGN.md's benchmark method: GET 10 B, 1 KB, 100 KB and POST 1 KB, at 32, 128 and 256 connections.</summary>
public static class LoadShapes
{
    public static readonly IReadOnlyList<LoadShape> All = [.. new[] { 32, 128, 256 }.SelectMany(Create)];

    /// <summary>The single shape of a quick run.</summary>
    public static readonly LoadShape Quick = All[0];

    private static IEnumerable<LoadShape> Create(int connections)
    {
        yield return new LoadShape($"get-10b-c{connections}", $"GET 10 B, {connections} connections", "/?s=10", connections, 0);
        yield return new LoadShape($"get-1kb-c{connections}", $"GET 1 KB, {connections} connections", "/?s=1024", connections, 0);
        yield return new LoadShape($"get-100kb-c{connections}", $"GET 100 KB, {connections} connections", "/?s=102400", connections, 0);
        yield return new LoadShape($"post-1kb-c{connections}", $"POST 1 KB to /sink, {connections} connections", "/sink", connections, 1024);
    }
}
