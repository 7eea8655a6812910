namespace LLRP.Baselines;

/// <summary>
/// What the baseline apps share (compiled into each): the keys <c>urls</c>, <c>downstream</c> and <c>tls.downstreamInsecure</c>,
/// logging at Warning, Kestrel without a Server header or a request body limit, and the exit code 2 with one line for a bad
/// value. An <c>https://</c> url takes Kestrel's certificate configuration (<c>Kestrel:Certificates:Default:Path</c> and
/// <c>:Password</c>).
/// </summary>
internal static class BaselineHost
{
    private const string DefaultUrls = "http://*:5000";
    private const string DefaultDownstream = "http://localhost:8081";
    private const string DownstreamInsecureKey = "tls.downstreamInsecure";

    /// <summary>
    /// A builder set up as above, the downstream to forward to, and whether its certificate is accepted unchecked
    /// (<c>tls.downstreamInsecure=true</c>, for a self-signed https:// origin in the benchmarks; default false).
    /// </summary>
    /// <exception cref="ArgumentException"><c>downstream</c> is not an absolute http:// or https:// URI, or <c>tls.downstreamInsecure</c> is not a boolean.</exception>
    public static (WebApplicationBuilder Builder, Uri Downstream, bool DownstreamInsecure) CreateBuilder(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        var downstream = builder.Configuration["downstream"] ?? DefaultDownstream;
        if (!Uri.TryCreate(downstream, UriKind.Absolute, out var downstreamUri)
            || (downstreamUri.Scheme != Uri.UriSchemeHttp && downstreamUri.Scheme != Uri.UriSchemeHttps))
        {
            throw new ArgumentException($"Invalid configuration: 'downstream' = '{downstream}'. Allowed: one absolute http:// or https:// URI.");
        }

        var insecure = builder.Configuration[DownstreamInsecureKey] ?? "false";
        if (!bool.TryParse(insecure, out var downstreamInsecure))
        {
            throw new ArgumentException($"Invalid configuration: '{DownstreamInsecureKey}' = '{insecure}'. Allowed: true, false.");
        }

        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.WebHost.UseUrls(builder.Configuration["urls"] ?? DefaultUrls);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            kestrel.Limits.MaxRequestBodySize = null;
        });
        return (builder, downstreamUri, downstreamInsecure);
    }

    /// <summary>Builds and runs an app until it stops; 2 and one line on stderr for a bad configuration value.</summary>
    public static async Task<int> RunAsync(Func<string[], WebApplication> build, string[] args)
    {
        try
        {
            await build(args).RunAsync();
            return 0;
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine(e.Message);
            return 2;
        }
    }
}
