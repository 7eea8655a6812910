using LLRP.ClientSide;

namespace LLRP.Upstream.HttpClient;

/// <summary>How a mode over HttpClient forwards the response <see cref="HttpClientExchange.ExchangeAsync"/> received.</summary>
internal interface IResponseForwarder
{
    /// <summary>Forwards <paramref name="response"/> to the client; a <c>101</c> to an upgrade request returns the tunnel it opened.</summary>
    /// <param name="message">The request it answers, whose body is stopped if still being read.</param>
    /// <param name="body">
    /// The request body, or null when there is none or it goes on beside the response (HTTP/2,
    /// <see cref="HttpClientExchange.ExchangeAsync"/>); not completed, it is stopped before the response is forwarded.
    /// </param>
    ValueTask<ForwardResult> ForwardResponseAsync(HttpRequestMessage message, HttpResponseMessage response, ClientRequestBody? body);
}
