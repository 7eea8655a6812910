namespace LLRP.Upstream.HttpClient;

/// <summary>
/// Where <see cref="ResponseBodyCopy"/> writes a response body read from HttpClient: the client's output, in one of the
/// shapes the modes give it. Implemented by structs, so the copy is compiled once per sink with no interface call.
/// </summary>
internal interface IResponseBodySink
{
    /// <summary>True when enough was written since the last flush that the next read must not wait for one.</summary>
    bool FlushDue { get; }

    /// <summary>Sends what was written; false when the client is gone.</summary>
    ValueTask<bool> FlushAsync();

    /// <summary>Writes one read's bytes; false when the client is gone.</summary>
    ValueTask<bool> WriteAsync(ReadOnlyMemory<byte> bytes);

    /// <summary>The body ended: writes what ends it in the client's framing, if anything.</summary>
    void End();
}
