using LLRP.Configuration;
using Microsoft.Extensions.Configuration;

namespace LLRP.Tests.Configuration;

/// <summary><see cref="ProxyOptions"/> read from in-memory settings, as the proxy reads its configuration.</summary>
internal static class ConfiguredOptions
{
    public static ProxyOptions Read(params (string Key, string Value)[] values)
        => ProxyOptionsReader.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(values.Select(v => new KeyValuePair<string, string?>(v.Key, v.Value)))
            .Build());
}
