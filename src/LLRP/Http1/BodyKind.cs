namespace LLRP.Http1;

/// <summary>Where a request's body is when its head has been parsed.</summary>
internal enum BodyKind : byte
{
    /// <summary>The request has no body.</summary>
    None,

    /// <summary>The whole body is already in the buffer with the head.</summary>
    Buffered,

    /// <summary>The body is still arriving.</summary>
    Streaming,
}
