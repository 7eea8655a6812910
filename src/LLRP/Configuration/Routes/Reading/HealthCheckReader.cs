using Microsoft.Extensions.Configuration;
using ReverseProxyKeys = LLRP.Configuration.ConfigurationKeys.ReverseProxySection;

namespace LLRP.Configuration.Routes.Reading;

/// <summary>
/// A cluster's <c>HealthCheck</c>: <c>Passive</c>, <c>Active</c> and <c>AvailableDestinationsPolicy</c>, with LLRP's
/// thresholds in the cluster's <c>Metadata</c>; what is left out comes from the top-level <c>health.*</c> keys.
/// </summary>
internal static class HealthCheckReader
{
    private const string ConsecutiveFailures = "ConsecutiveFailures";

    public static (PassiveHealthOptions Passive, ActiveHealthOptions? Active, AvailableDestinationsPolicy Available) Read(
        IConfigurationSection healthCheck, IConfigurationSection metadata, ProxyOptions defaults)
    {
        SectionValue.Children(healthCheck, "a section with Passive, Active or AvailableDestinationsPolicy");
        SectionKeys.Check(healthCheck, ["Passive", "Active", "AvailableDestinationsPolicy"]);
        var available = SectionValue.Enum<AvailableDestinationsPolicy>(healthCheck.GetSection("AvailableDestinationsPolicy")) ?? AvailableDestinationsPolicy.HealthyAndUnknown;
        return (ReadPassive(healthCheck.GetSection("Passive"), metadata, defaults), ReadActive(healthCheck.GetSection("Active"), metadata, defaults), available);
    }

    /// <summary>
    /// On unless <c>Enabled</c> is false, unlike YARP (off unless enabled): LLRP's policy only ejects a destination after
    /// consecutive transport failures and never the only one, so it is on by default as the top-level key is.
    /// </summary>
    private static PassiveHealthOptions ReadPassive(IConfigurationSection passive, IConfigurationSection metadata, ProxyOptions defaults)
    {
        SectionValue.Children(passive, "a section with Enabled, Policy, ReactivationPeriod");
        SectionKeys.Check(passive, ["Enabled", "Policy", "ReactivationPeriod"]);
        var policy = passive.GetSection("Policy");
        if (SectionValue.String(policy) is { } name && !name.Trim().Equals(ConsecutiveFailures, StringComparison.OrdinalIgnoreCase))
        {
            throw SectionValue.Error(policy, name.Trim().Equals("TransportFailureRate", StringComparison.OrdinalIgnoreCase)
                ? $"{ConsecutiveFailures}, or no Policy: YARP's TransportFailureRate (a failure rate over a window) is not supported by LLRP, whose passive policy ejects a destination after Metadata:{ReverseProxyKeys.PassiveFailures} transport failures in a row"
                : $"{ConsecutiveFailures} (LLRP's passive policy: Metadata:{ReverseProxyKeys.PassiveFailures} transport failures in a row), or no Policy");
        }

        var reactivation = SectionValue.Duration(passive.GetSection("ReactivationPeriod")) ?? defaults.PassiveHealthReactivation;
        var enabledSection = passive.GetSection("Enabled");
        var enabled = SectionValue.Bool(enabledSection);
        var failures = SectionValue.Int(metadata.GetSection(ReverseProxyKeys.PassiveFailures), 1) ?? defaults.PassiveHealthFailures;
        return enabled switch
        {
            false => new PassiveHealthOptions(0, reactivation),
            true when failures == 0 => throw SectionValue.Error(enabledSection, $"false, or a threshold in Metadata:{ReverseProxyKeys.PassiveFailures} ({ConfigurationKeys.PassiveHealthFailures} is 0)"),
            _ => new PassiveHealthOptions(failures, reactivation),
        };
    }

    /// <summary>Null unless <c>Enabled</c> is true; the path is <c>Path</c> and <c>Query</c>, else <c>health.active.path</c>, else <c>/</c>.</summary>
    private static ActiveHealthOptions? ReadActive(IConfigurationSection active, IConfigurationSection metadata, ProxyOptions defaults)
    {
        SectionValue.Children(active, "a section with Enabled, Interval, Timeout, Policy, Path, Query");
        SectionKeys.Check(active, ["Enabled", "Interval", "Timeout", "Policy", "Path", "Query"]);
        var policy = active.GetSection("Policy");
        if (SectionValue.String(policy) is { } name && !name.Trim().Equals(ConsecutiveFailures, StringComparison.OrdinalIgnoreCase))
        {
            throw SectionValue.Error(policy, $"{ConsecutiveFailures} (Metadata:{ReverseProxyKeys.ActiveUnhealthy} failed probes in a row), or no Policy: other active policies are not supported by LLRP");
        }

        var interval = SectionValue.Duration(active.GetSection("Interval")) ?? defaults.ActiveHealthInterval;
        var timeout = SectionValue.Duration(active.GetSection("Timeout")) ?? defaults.ActiveHealthTimeout;
        var path = ProbePath(active.GetSection("Path"), active.GetSection("Query"), defaults.ActiveHealthPath ?? "/");
        var healthy = SectionValue.Int(metadata.GetSection(ReverseProxyKeys.ActiveHealthy), 1) ?? defaults.ActiveHealthyThreshold;
        var unhealthy = SectionValue.Int(metadata.GetSection(ReverseProxyKeys.ActiveUnhealthy), 1) ?? defaults.ActiveUnhealthyThreshold;
        return SectionValue.Bool(active.GetSection("Enabled")) == true
            ? new ActiveHealthOptions(path, interval, timeout, healthy, unhealthy)
            : null;
    }

    private static string ProbePath(IConfigurationSection pathSection, IConfigurationSection querySection, string defaultPath)
    {
        var path = SectionValue.String(pathSection) ?? defaultPath;
        if (!path.StartsWith('/') || path.StartsWith("//", StringComparison.Ordinal) || !Uri.IsWellFormedUriString(path, UriKind.Relative))
        {
            throw SectionValue.Error(pathSection, "an absolute path such as /healthz");
        }

        var query = SectionValue.String(querySection)?.TrimStart('?');
        if (string.IsNullOrEmpty(query))
        {
            return path;
        }

        var probe = $"{path}{(path.Contains('?') ? '&' : '?')}{query}";
        return Uri.IsWellFormedUriString(probe, UriKind.Relative) && !query.Contains('#')
            ? probe
            : throw SectionValue.Error(querySection, "a query string such as ?ready=1");
    }
}
