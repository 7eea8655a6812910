namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>One field line of a message head or trailer section, value without surrounding whitespace.</summary>
public readonly record struct HttpField(string Name, string Value);
