using LLRP.Configuration;
using LLRP.Hosting;
using Microsoft.Extensions.Hosting;

try
{
    var app = ProxyHost.Build(args);
    await ProxyHost.StartAsync(app);
    Console.WriteLine(StartupReport.Describe(app));
    await app.WaitForShutdownAsync();
    return 0;
}
catch (ProxyConfigurationException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}
