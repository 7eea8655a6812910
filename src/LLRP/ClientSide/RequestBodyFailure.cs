namespace LLRP.ClientSide;

/// <summary>Why reading a request body from the client stopped before its end, when the client is to blame.</summary>
internal enum RequestBodyFailure : byte
{
    None,

    /// <summary>The client closed or reset before the end of the body: nobody is left to answer.</summary>
    ClientAborted,

    /// <summary>The body was malformed or too large: 400/413 before the response started, else an abort.</summary>
    Rejected,
}
