using LLRP.Downstream;
using Microsoft.AspNetCore.Connections;
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

try
{
    await app.StartAsync();
}
catch (IOException e) when (e.InnerException is AddressInUseException)
{
    Console.Error.WriteLine($"{e.Message} Choose another port with --urls=http://host:port, or stop what holds it (ss -ltnp).");
    return 2;
}

Console.WriteLine($"LLRP.Downstream (the bundled origin) listening on {string.Join(", ", app.Urls)}");
await app.WaitForShutdownAsync();
return 0;
