using LLRP.Baselines.HttpClientProxy;

try
{
    await HttpClientProxyHost.Build(args).RunAsync();
    return 0;
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}
