using LLRP.Downstream;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

var app = DownstreamHost.Build(args);
await app.StartAsync();
var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
Console.WriteLine($"LLRP.Downstream (the bundled origin) listening on {string.Join(", ", addresses)}");
await app.WaitForShutdownAsync();
