using LLRP.ClientSide;

namespace LLRP.Upstream.HttpClient;

/// <summary>The httpclient mode's request content: body pieces go from the client pipe's buffer straight to HttpClient's request stream.</summary>
internal sealed class PipeBodyContent(ClientRequestBody body) : ForwardedContent(body)
{
    /// <summary>Most bytes handed to HttpClient per write: larger writes bypass its 4 KiB write buffer and go to the socket directly.</summary>
    private const int MaxPiece = 64 * 1024;

    /// <summary>
    /// Copies each piece as it is read; HttpClient's buffer is flushed only while waiting for the client, so the body
    /// streams with back-pressure both ways, and a body that arrived with its head leaves with it, in one send.
    /// </summary>
    protected override async Task CopyBodyAsync(Stream destination, CancellationToken cancellationToken)
    {
        try
        {
            while (true)
            {
                var read = Body.ReadAsync(MaxPiece, cancellationToken);
                var piece = read.IsCompleted ? await read : await FlushWhileReadingAsync(destination, read, cancellationToken);
                if (piece.IsEmpty)
                {
                    return;
                }

                foreach (var segment in piece)
                {
                    await destination.WriteAsync(segment, cancellationToken);
                }
            }
        }
        finally
        {
            Body.Advance();
        }
    }
}
