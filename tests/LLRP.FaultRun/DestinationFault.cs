namespace LLRP.FaultRun;

/// <summary>What the faulting destination does instead of answering a request in full.</summary>
internal enum DestinationFault
{
    /// <summary>Resets the connection (RST) once the request is read, before any byte of the response.</summary>
    ResetBeforeResponse,

    /// <summary>Sends the head and part of the body, then resets the connection.</summary>
    ResetMidBody,

    /// <summary>Sends the head and part of the body, then closes the connection (FIN): a cut response.</summary>
    CutMidBody,
}
