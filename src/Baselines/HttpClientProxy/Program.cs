return await LLRP.Baselines.BaselineHost.RunAsync(LLRP.Baselines.HttpClientProxy.HttpClientProxyHost.Build, args);
