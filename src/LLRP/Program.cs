using LLRP.Configuration;
using LLRP.Hosting;

try
{
    var app = ProxyHost.Build(args);
    Console.WriteLine(StartupReport.Describe(app));
    await app.RunAsync();
    return 0;
}
catch (ProxyConfigurationException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}
