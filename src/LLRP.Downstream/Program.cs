using LLRP.Downstream;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Hosting;

WebApplication app;
try
{
    app = DownstreamHost.Build(args);
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}

await app.StartAsync();
Console.WriteLine($"LLRP.Downstream (the bundled origin) listening on {string.Join(", ", app.Urls)}");
await app.WaitForShutdownAsync();
return 0;
