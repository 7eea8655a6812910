using LLRP.Downstream;
using Microsoft.Extensions.Hosting;

var app = DownstreamHost.Build(args);
await app.StartAsync();
Console.WriteLine($"LLRP.Downstream (the bundled origin) listening on {string.Join(", ", app.Urls)}");
await app.WaitForShutdownAsync();
