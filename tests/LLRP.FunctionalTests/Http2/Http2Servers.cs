namespace LLRP.FunctionalTests.Http2;

/// <summary>
/// The HTTP/2 servers a proxy listener can run (<c>http2.server</c>), by name, as theory data: the conformance tests run
/// against each.
/// </summary>
public static class Http2Servers
{
    public const string Kestrel = "kestrel";

    public static TheoryData<string> All => new(Kestrel);

    /// <summary>The proxy settings (<c>key=value</c>) that select server <paramref name="server"/>: none for Kestrel's, the default.</summary>
    public static string[] Settings(string server) => server == Kestrel ? [] : [$"http2.server={server}"];
}
