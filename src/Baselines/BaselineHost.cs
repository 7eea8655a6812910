namespace LLRP.Baselines;

/// <summary>
/// What the baseline apps share (compiled into each): the keys <c>urls</c> and <c>downstream</c>, logging at Warning,
/// Kestrel without a Server header or a request body limit, and the exit code 2 with one line for a bad value.
/// </summary>
internal static class BaselineHost
{
    private const string DefaultUrls = "http://*:5000";
    private const string DefaultDownstream = "http://localhost:8081";

    /// <summary>A builder set up as above, and the downstream to forward to.</summary>
    /// <exception cref="ArgumentException"><c>downstream</c> is not an absolute http:// URI.</exception>
    public static (WebApplicationBuilder Builder, Uri Downstream) CreateBuilder(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        var downstream = builder.Configuration["downstream"] ?? DefaultDownstream;
        if (!Uri.TryCreate(downstream, UriKind.Absolute, out var downstreamUri) || downstreamUri.Scheme != Uri.UriSchemeHttp)
        {
            throw new ArgumentException($"Invalid configuration: 'downstream' = '{downstream}'. Allowed: one absolute http:// URI.");
        }

        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.WebHost.UseUrls(builder.Configuration["urls"] ?? DefaultUrls);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            kestrel.Limits.MaxRequestBodySize = null;
        });
        return (builder, downstreamUri);
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
