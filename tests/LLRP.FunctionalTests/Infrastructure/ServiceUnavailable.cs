using System.Globalization;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>What a <c>503 Service Unavailable</c> from the proxy must carry.</summary>
public static class ServiceUnavailable
{
    /// <summary>
    /// Asserts that <paramref name="response"/> is a 503 (RFC 9110 §15.6.4) with one <c>Retry-After</c> of delay-seconds
    /// (RFC 9110 §10.2.3), at least 1 as the contract promises; returns those seconds.
    /// </summary>
    public static int RetryAfterSeconds(RawHttpResponse response)
    {
        Assert.True(response.StatusCode == 503, $"Expected 503 Service Unavailable, got:\n{response}");
        var retryAfter = response.Head.Get("Retry-After");
        Assert.True(
            int.TryParse(retryAfter, NumberStyles.None, CultureInfo.InvariantCulture, out var seconds) && seconds >= 1,
            $"Expected Retry-After: a whole number of seconds, at least 1, got '{retryAfter}' in:\n{response}");
        return seconds;
    }
}
