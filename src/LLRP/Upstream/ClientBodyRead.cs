using System.IO.Pipelines;
using LLRP.ClientSide;

namespace LLRP.Upstream;

/// <summary>The end of a read of a client's request body that is no longer wanted, by every forwarder that streams one.</summary>
internal static class ClientBodyRead
{
    /// <summary>
    /// Wakes the pending read of <paramref name="body"/>. Once the client reset its stream, Kestrel's HTTP/2 server throws
    /// the reset from this call: that read has failed then, or will, which ends it as well, and the forwarder goes on to
    /// close its upstream connection (thrown on, the exchange's end was cut short and the connection was never closed).
    /// </summary>
    public static void Cancel(PipeReader body)
    {
        try
        {
            body.CancelPendingRead();
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            // The client's stream is gone; its reader has seen or will see why.
        }
    }
}
