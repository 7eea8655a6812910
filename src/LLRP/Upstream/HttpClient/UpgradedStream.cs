using System.IO.Pipelines;
using LLRP.ClientSide;

namespace LLRP.Upstream.HttpClient;

/// <summary>
/// A tunnel's destination end in the modes over HttpClient: the read-write stream <c>SocketsHttpHandler</c> returns as
/// the content of a <c>101</c> response, behind pipes. The stream has no half-close: ending what is sent ends the
/// connection.
/// </summary>
internal sealed class UpgradedStream : IUpstreamTunnel
{
    private readonly Stream _stream;
    private readonly HttpResponseMessage _response;

    private UpgradedStream(Stream stream, HttpResponseMessage response)
    {
        _stream = stream;
        _response = response;
        Transport = new TransportPipes(
            PipeReader.Create(stream, new StreamPipeReaderOptions(leaveOpen: true)),
            PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: true)));
    }

    /// <summary>The tunnel over the read-write stream of <paramref name="response"/>, a <c>101</c>; it owns the response from now on.</summary>
    public static async ValueTask<UpgradedStream> OpenAsync(HttpResponseMessage response)
        => new(await response.Content.ReadAsStreamAsync(), response);

    public IDuplexPipe Transport { get; }

    public bool HalfCloses => false;

    public void Abort() => _stream.Dispose();

    public async ValueTask DisposeAsync()
    {
        try
        {
            await Transport.Input.CompleteAsync();
            await Transport.Output.CompleteAsync();
        }
        catch (Exception e) when (ClientResponseWriter.IsConnectionFailure(e))
        {
            // What was left to send could not go: the connection ends anyway.
        }
        finally
        {
            await _stream.DisposeAsync();
            _response.Dispose();
        }
    }
}
