using System.Text;
using LLRP.Diagnostics;
using LLRP.Proxy;
using LLRP.Routing;

namespace LLRP.Tests.Routing;

/// <summary>The one error policy: every value decided, and the proxy's own responses agree with it.</summary>
public sealed class ErrorPolicyTests
{
    public static TheoryData<string> Errors => new(Enum.GetNames<ForwarderError>());

    public static TheoryData<string> Reasons => new(Enum.GetNames<RejectionReason>());

    /// <summary>The response the proxy writes for a failure carries the status the policy gives it.</summary>
    [Theory]
    [MemberData(nameof(Errors))]
    public void StatusCode_MatchesTheResponseWritten(string name)
    {
        var error = Enum.Parse<ForwarderError>(name);
        var status = ErrorPolicy.StatusCode(error);
        var response = ErrorResponses.For(error);
        if (error == ForwarderError.NoHealthyDestination)
        {
            response = ErrorResponses.NoHealthyDestination(3);
        }

        if (status == 0)
        {
            Assert.True(response.IsEmpty, $"{error} owes no response, yet one is built");
            return;
        }

        Assert.StartsWith($"HTTP/1.1 {status} ", Encoding.ASCII.GetString(response));
    }

    /// <summary>RFC 9110 §9.2.2: only a failure that left the request unsent lets a non-idempotent request go elsewhere.</summary>
    [Theory]
    [MemberData(nameof(Errors))]
    public void Retry_AnyMethodOnlyWhenNothingWasSent(string name)
    {
        var error = Enum.Parse<ForwarderError>(name);
        var scope = ErrorPolicy.Retry(error);
        var unsent = error is ForwarderError.ConnectFailed or ForwarderError.ConnectTimeout or ForwarderError.TlsHandshakeFailed;
        Assert.Equal(unsent, scope == RetryScope.Unsent);
        Assert.Equal(error == ForwarderError.UpstreamClosed, scope == RetryScope.Idempotent);
    }

    /// <summary>What counts against a destination's health is its transport failing; a retryable failure always counts.</summary>
    [Theory]
    [MemberData(nameof(Errors))]
    public void CountsAgainstHealth_EveryRetryableFailure(string name)
    {
        var error = Enum.Parse<ForwarderError>(name);
        if (ErrorPolicy.Retry(error) != RetryScope.Never)
        {
            Assert.True(ErrorPolicy.CountsAgainstHealth(error));
        }

        if (error is ForwarderError.None or ForwarderError.ClientAborted or ForwarderError.NoRoute or ForwarderError.QueueFull
            or ForwarderError.QueueTimeout or ForwarderError.NoHealthyDestination or ForwarderError.AffinityDestinationUnavailable)
        {
            Assert.False(ErrorPolicy.CountsAgainstHealth(error));
        }
    }

    [Fact]
    public void IsReported_NotTheClientsLeavingNorAnUnroutedRequest()
    {
        Assert.False(ErrorPolicy.IsReported(ForwarderError.ClientAborted));
        Assert.False(ErrorPolicy.IsReported(ForwarderError.NoRoute));
        Assert.True(ErrorPolicy.IsReported(ForwarderError.ConnectFailed));
    }

    /// <summary>A rejected request's response carries the status the policy gives its reason (RFC 9110 §15.5, §15.6).</summary>
    [Theory]
    [MemberData(nameof(Reasons))]
    public void StatusCode_OfEveryRejection_IsAClientOrServerError(string name)
    {
        var reason = Enum.Parse<RejectionReason>(name);
        var status = ErrorPolicy.StatusCode(reason);
        Assert.InRange(status, 400, 505);
        Assert.StartsWith($"HTTP/1.1 {status} ", Encoding.ASCII.GetString(ErrorResponses.For(reason)));
    }
}
