return await LLRP.Baselines.BaselineHost.RunAsync(LLRP.Baselines.YarpProxy.YarpProxyHost.Build, args);
