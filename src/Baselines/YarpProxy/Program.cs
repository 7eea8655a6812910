using LLRP.Baselines.YarpProxy;

try
{
    await YarpProxyHost.Build(args).RunAsync();
    return 0;
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}
