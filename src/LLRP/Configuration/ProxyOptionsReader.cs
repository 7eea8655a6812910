using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace LLRP.Configuration;

/// <summary>Reads and validates <see cref="ProxyOptions"/>; throws <see cref="ProxyConfigurationException"/> on the first bad value.</summary>
public static class ProxyOptionsReader
{
    /// <summary>Where the bundled origin listens when no <c>downstream</c> is configured.</summary>
    public const string EmbeddedDownstreamUrl = "http://127.0.0.1:8081";

    public static ProxyOptions Read(IConfiguration configuration)
    {
        var downstreamValue = configuration["downstream"];
        var embedded = string.IsNullOrWhiteSpace(downstreamValue);
        var defaults = new ProxyOptions { Downstreams = [] };

        return new ProxyOptions
        {
            Downstreams = ReadDownstreams(embedded ? EmbeddedDownstreamUrl : downstreamValue!),
            EmbeddedDownstream = embedded,
            Mode = ReadMode(configuration),
            ConnectionStrategy = ReadStrategy(configuration),
            MaxIdleConnectionsPerDownstream = ReadInt(configuration, "pool.maxIdlePerDownstream", defaults.MaxIdleConnectionsPerDownstream, 0),
            PooledConnectionIdleTimeout = ReadMilliseconds(configuration, "pool.idleTimeoutMs", defaults.PooledConnectionIdleTimeout),
            PreserveHost = ReadBool(configuration, "preserveHost", defaults.PreserveHost),
            ForwardedHeaders = ReadBool(configuration, "forwardedHeaders", defaults.ForwardedHeaders),
            AddVia = ReadBool(configuration, "via", defaults.AddVia),
            ConnectTimeout = ReadMilliseconds(configuration, "timeouts.connectMs", defaults.ConnectTimeout),
            ResponseHeadersTimeout = ReadMilliseconds(configuration, "timeouts.responseHeadersMs", defaults.ResponseHeadersTimeout),
            KeepAliveTimeout = ReadMilliseconds(configuration, "timeouts.keepAliveMs", defaults.KeepAliveTimeout),
            RequestHeadersTimeout = ReadMilliseconds(configuration, "timeouts.requestHeadersMs", defaults.RequestHeadersTimeout),
            MaxRequestLineSize = ReadInt(configuration, "limits.maxRequestLineSize", defaults.MaxRequestLineSize, 64),
            MaxRequestHeadersTotalSize = ReadInt(configuration, "limits.maxRequestHeadersTotalSize", defaults.MaxRequestHeadersTotalSize, 64),
            MaxRequestHeaderCount = ReadInt(configuration, "limits.maxRequestHeaderCount", defaults.MaxRequestHeaderCount, 1),
            MaxRequestBodySize = ReadLong(configuration, "limits.maxRequestBodySize", defaults.MaxRequestBodySize),
            MaxResponseHeadersTotalSize = ReadInt(configuration, "limits.maxResponseHeadersTotalSize", defaults.MaxResponseHeadersTotalSize, 64),
            MaxChunkLineSize = ReadInt(configuration, "limits.maxChunkLineSize", defaults.MaxChunkLineSize, 32),
            ShareClients = ReadBool(configuration, "shareClients", defaults.ShareClients),
            ShareClientsRoundRobin = ReadBool(configuration, "shareClients.roundRobin", defaults.ShareClientsRoundRobin),
            ShareClientsCount = ReadInt(configuration, "shareClients.count", defaults.ShareClientsCount, 1),
            ReuseHttpRequestMessage = ReadBool(configuration, "LLRP_HTTPCLIENT_REUSEREQUEST", defaults.ReuseHttpRequestMessage),
            ThreadCount = configuration["threadCount"] is null ? null : ReadInt(configuration, "threadCount", 0, 1),
            InlineScheduling = ReadBool(configuration, "transport.inlineScheduling", defaults.InlineScheduling),
            ShutdownTimeout = ReadMilliseconds(configuration, "shutdownTimeoutMs", defaults.ShutdownTimeout),
        };
    }

    private static List<DownstreamEndpoint> ReadDownstreams(string value)
    {
        var endpoints = new List<DownstreamEndpoint>();
        foreach (var part in value.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            endpoints.Add(DownstreamEndpoint.TryParse(part)
                ?? throw new ProxyConfigurationException("downstream", value, "';'-separated absolute http:// URIs without query or user info"));
        }

        return endpoints.Count > 0
            ? endpoints
            : throw new ProxyConfigurationException("downstream", value, "at least one http:// URI");
    }

    private static ProxyMode ReadMode(IConfiguration configuration)
    {
        var flags = new List<ProxyMode>();
        if (ReadBool(configuration, "httpclient", false))
        {
            flags.Add(ProxyMode.HttpClient);
        }

        if (ReadBool(configuration, "httpclient-httpcontext", false))
        {
            flags.Add(ProxyMode.HttpClientWithContext);
        }

        if (ReadBool(configuration, "yarp", false))
        {
            flags.Add(ProxyMode.Yarp);
        }

        var modeValue = configuration["mode"];
        ProxyMode? mode = modeValue?.Trim().ToLowerInvariant() switch
        {
            null or "" => null,
            "raw" or "llhttp" => ProxyMode.Raw,
            "httpclient" => ProxyMode.HttpClient,
            "httpclient-httpcontext" => ProxyMode.HttpClientWithContext,
            "yarp" => ProxyMode.Yarp,
            _ => throw new ProxyConfigurationException("mode", modeValue, "raw, httpclient, httpclient-httpcontext, yarp"),
        };

        if (flags.Count > 1 || (mode is { } chosen && flags.Count == 1 && flags[0] != chosen))
        {
            throw new ProxyConfigurationException("mode", modeValue ?? string.Join(",", flags), "one mode: 'mode' and the flags 'httpclient', 'httpclient-httpcontext', 'yarp' must not disagree");
        }

        return mode ?? (flags.Count == 1 ? flags[0] : ProxyMode.Raw);
    }

    private static UpstreamConnectionStrategy ReadStrategy(IConfiguration configuration)
    {
        var value = configuration["upstreamConnections"];
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" or "perclient" => UpstreamConnectionStrategy.PerClient,
            "pooled" => UpstreamConnectionStrategy.Pooled,
            _ => throw new ProxyConfigurationException("upstreamConnections", value, "perClient, pooled"),
        };
    }

    private static bool ReadBool(IConfiguration configuration, string key, bool defaultValue)
    {
        var value = configuration[key];
        return value?.Trim().ToLowerInvariant() switch
        {
            null or "" => defaultValue,
            "1" or "true" or "yes" or "on" => true,
            "0" or "false" or "no" or "off" => false,
            _ => throw new ProxyConfigurationException(key, value, "true/false or 1/0"),
        };
    }

    private static int ReadInt(IConfiguration configuration, string key, int defaultValue, int minimum)
    {
        var value = configuration[key];
        if (string.IsNullOrWhiteSpace(value))
        {
            return defaultValue;
        }

        return int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var result) && result >= minimum
            ? result
            : throw new ProxyConfigurationException(key, value, $"an integer >= {minimum}");
    }

    private static long ReadLong(IConfiguration configuration, string key, long defaultValue)
    {
        var value = configuration[key];
        if (string.IsNullOrWhiteSpace(value))
        {
            return defaultValue;
        }

        return long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var result)
            ? result
            : throw new ProxyConfigurationException(key, value, "an integer >= 0 (0 = unlimited)");
    }

    private static TimeSpan ReadMilliseconds(IConfiguration configuration, string key, TimeSpan defaultValue)
        => TimeSpan.FromMilliseconds(ReadInt(configuration, key, (int)defaultValue.TotalMilliseconds, 1));
}
