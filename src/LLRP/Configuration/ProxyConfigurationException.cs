namespace LLRP.Configuration;

/// <summary>A configuration value that LLRP cannot run with. The message is one line naming the key, the value and what is allowed.</summary>
public sealed class ProxyConfigurationException : Exception
{
    public ProxyConfigurationException(string key, string? value, string allowed)
        : this(key, $"Invalid configuration: '{key}' = '{value}'. Allowed: {allowed}.")
    {
    }

    private ProxyConfigurationException(string key, string message)
        : base(message) => Key = key;

    /// <summary>The key whose value is refused; for a settings file that cannot be read, the file.</summary>
    public string Key { get; }

    /// <summary>A settings file that .NET's configuration cannot load; <paramref name="description"/> names the file, where it breaks and why.</summary>
    public static ProxyConfigurationException UnreadableFile(string file, string description)
        => new(file, description);
}
