using LLRP.Http1;

namespace LLRP.Tests.Http1;

/// <summary>What <see cref="ChunkedDecoder"/> made of some input: the status it stopped at, the data (one char per byte) and the bytes it consumed.</summary>
internal sealed record ChunkedDecodeResult(ChunkedDecodeStatus Status, string Data, long Consumed);
