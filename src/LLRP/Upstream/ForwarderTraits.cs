namespace LLRP.Upstream;

/// <summary>What a forwarder can do, which shapes how the session hands it requests.</summary>
/// <param name="MaxBatch">Most requests in a batch: more than one when the forwarder pipelines them upstream.</param>
/// <param name="TakesBufferedBodies">A body already in the client's buffer is handed over with its head; otherwise every body is read as it comes.</param>
/// <param name="SendsAsteriskForm">The forwarder can send <c>OPTIONS *</c>; otherwise such a request is answered 501 (RFC 9110 §15.6.2).</param>
/// <param name="AnswersContinue">The destination's interim responses do not reach the client, so the proxy answers <c>Expect: 100-continue</c> itself.</param>
internal readonly record struct ForwarderTraits(int MaxBatch, bool TakesBufferedBodies, bool SendsAsteriskForm, bool AnswersContinue)
{
    /// <summary>A client of its own that pipelines requests and relays everything the destination says, as raw mode.</summary>
    public static ForwarderTraits Pipelining { get; } = new(64, TakesBufferedBodies: true, SendsAsteriskForm: true, AnswersContinue: false);

    /// <summary>HttpClient underneath: one request at a time, bodies streamed, no asterisk-form, interim responses swallowed.</summary>
    public static ForwarderTraits HttpClient { get; } = new(1, TakesBufferedBodies: false, SendsAsteriskForm: false, AnswersContinue: true);
}
