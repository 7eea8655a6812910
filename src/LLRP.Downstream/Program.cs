using LLRP.Downstream;

await DownstreamHost.Build(args).RunAsync();
