using System.IO.Pipelines;
using LLRP.Configuration;
using LLRP.Http1;
using LLRP.Upstream.Sockets;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// One client connection in httpclient mode: the parsed head fills an <see cref="HttpRequestMessage"/> directly
/// (<see cref="RequestMessageBuilder"/>), the body streams from the client input (<see cref="PipeBodyContent"/>),
/// <see cref="HttpMessageInvoker.SendAsync"/> returns once the response head is in, and the response is written with
/// raw mode's framing rules (<see cref="ResponseMessageHeadWriter"/>, <see cref="FrontEndConnection.CopyResponseBodyAsync"/>).
/// </summary>
internal sealed class HttpClientConnection : FrontEndConnection
{
    private readonly RequestMessageBuilder _builder;
    private HttpRequestMessage? _message;

    public HttpClientConnection(ConnectionContext connection, DownstreamEndpoint downstream, HttpClientModeServices services)
        : base(connection, downstream, services)
        => _builder = new RequestMessageBuilder(downstream, Options, ClientAddress, CreateContent);

    protected override bool Prepare()
    {
        _message = NextMessage();
        _builder.Build(Request, _message);
        return true;
    }

    protected override ForwardedContent NewContent() => new PipeBodyContent(Body);

    protected override async ValueTask<bool> ForwardAsync()
    {
        var message = _message!;
        try
        {
            HttpResponseMessage response;
            try
            {
                response = await SendAsync(message);
            }
            catch (Exception e)
            {
                await FailBeforeResponseAsync(message, e);
                return false;
            }

            using (response)
            {
                return await ForwardResponseAsync(message, response);
            }
        }
        finally
        {
            Release(message);
        }
    }

    private async ValueTask<bool> ForwardResponseAsync(HttpRequestMessage message, HttpResponseMessage response)
    {
        var persistent = Persists;
        if (!Body.IsCompleted)
        {
            await StopBodyAsync(message);
        }

        var status = (int)response.StatusCode;
        if (status == 101 || !ResponseFieldCheck.HasValidFraming(response))
        {
            Fail(ForwarderError.InvalidResponse, null);
            return false;
        }

        var contentLength = response.Content.Headers.ContentLength;
        var framing = ResponseFraming.For(status, contentLength, Request.IsHeadMethod, Request.IsHttp10, persistent);
        var writer = new BufferWriter<PipeWriter>(ClientOutput, 512);
        ResponseMessageHeadWriter.Write(ref writer, response, framing, contentLength);
        writer.Commit();
        if (framing.Body != BodyFraming.None)
        {
            var error = await CopyResponseBodyAsync(response.Content.ReadAsStream(), framing);
            if (error != ForwarderError.None)
            {
                Abort(error);
                return false;
            }
        }

        Completed();
        return !framing.Close;
    }
}
