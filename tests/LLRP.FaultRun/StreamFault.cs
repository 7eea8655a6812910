namespace LLRP.FaultRun;

/// <summary>What a faulting HTTP/2 client (<see cref="FaultingHttp2Client"/>) does instead of a plain exchange on a stream.</summary>
internal enum StreamFault
{
    /// <summary>Sends the head (with a Content-Length) and half of the request body, then resets the stream (RST_STREAM).</summary>
    CancelMidUpload,

    /// <summary>Sends the request, reads the response head and part of its body, then resets the stream.</summary>
    CancelMidDownload,

    /// <summary>Sends the request and, once the response head has come, resets the TCP connection under every stream on it.</summary>
    AbortConnection,
}
