namespace LLRP.Http2.Server;

/// <summary>What makes a decoded request head unusable.</summary>
internal enum RequestFault
{
    None,

    /// <summary>Malformed (RFC 9113 §8.1.1): a stream error of type PROTOCOL_ERROR, never forwarded.</summary>
    Malformed,

    /// <summary>Over the header list, field size or field count limit: answered 431 (RFC 6585 §5), never forwarded.</summary>
    TooLarge,
}
