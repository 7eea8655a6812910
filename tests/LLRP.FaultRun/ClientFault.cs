namespace LLRP.FaultRun;

/// <summary>What a faulting client does instead of a plain exchange.</summary>
internal enum ClientFault
{
    /// <summary>Sends the head and part of a request body, then resets the connection.</summary>
    AbortMidUpload,

    /// <summary>Sends the request, reads part of the response, then resets the connection.</summary>
    AbortMidDownload,

    /// <summary>Sends the request and at once closes its sending side (FIN), then reads what comes.</summary>
    HalfCloseEarly,

    /// <summary>Sends the request followed by bytes that are no HTTP, reads the response, then what follows until the close.</summary>
    GarbageAfterRequest,
}
