namespace LLRP.Proxy;

/// <summary>What a batch of requests parsed from one client read left behind.</summary>
/// <param name="Consumed">Where the client input is consumed up to.</param>
/// <param name="Examined">Where it was examined up to: the end when more bytes are needed for the next head.</param>
/// <param name="Close">The client connection ends now.</param>
/// <param name="StreamsBody">The last request's body is still arriving and must be streamed before reading on.</param>
internal readonly record struct BatchOutcome(SequencePosition Consumed, SequencePosition Examined, bool Close, bool StreamsBody);
