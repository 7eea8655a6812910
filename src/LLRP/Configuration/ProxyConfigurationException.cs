namespace LLRP.Configuration;

/// <summary>A configuration value that LLRP cannot run with. The message is one line naming the key, the value and what is allowed.</summary>
public sealed class ProxyConfigurationException(string key, string? value, string allowed)
    : Exception($"Invalid configuration: '{key}' = '{value}'. Allowed: {allowed}.")
{
    public string Key { get; } = key;
}
