using System.Buffers;
using System.IO.Pipelines;
using LLRP.Http2.Server;
using LLRP.Proxy;
using Microsoft.Extensions.Hosting.Internal;
using Microsoft.Extensions.Logging.Abstractions;

namespace LLRP.Fuzz;

/// <summary>
/// A whole connection of LLRP's own HTTP/2 server (<see cref="Http2Connection"/>, as <see cref="Http2Server"/> runs it)
/// over in-memory pipes: the input is the client's bytes after the preface (RFC 9113 §3.4), answered by
/// <see cref="FuzzApplication"/>. The target writes them at once, lets the server take in all of them and its streams do
/// all they can without more from the client, then ends the client's side. Checked: no exception leaves the connection
/// (it answers the client's errors with GOAWAY or RST_STREAM itself), the connection ends once the client's side has
/// (a connection still running after <see cref="EndBound"/> is a hang), and its output is a valid frame sequence
/// (<see cref="ServerFrames"/>). Deadlines cannot fire: the timeouts are far beyond any run.
/// </summary>
internal static class Http2ConnectionTarget
{
    private static readonly TimeSpan EndBound = TimeSpan.FromSeconds(10);

    /// <summary>How long the streams may take to settle once the server read everything: only a bound, not a result.</summary>
    private static readonly TimeSpan SettleBound = TimeSpan.FromMilliseconds(200);

    private static readonly ServerLimits Limits = new(
        MaxConcurrentStreams: 8,
        MaxFrameSize: 16_384,
        InitialStreamWindowSize: 65_535,
        InitialConnectionWindowSize: 131_070,
        MaxHeaderListSize: 4096,
        MaxHeaderFieldSize: 2048,
        MaxHeaderCount: 32,
        KeepAliveTimeoutMs: 1L << 40,
        RequestHeadersTimeoutMs: 1L << 40);

    private static readonly ClientConnectionTracker Tracker = new(new ApplicationLifetime(NullLogger<ApplicationLifetime>.Instance));

    private static ReadOnlySpan<byte> Preface => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8;

    public static void Run(byte[] bytes) => RunAsync(bytes).GetAwaiter().GetResult();

    private static async Task RunAsync(byte[] bytes)
    {
        var connection = new FuzzConnection();
        var application = new FuzzApplication();
        connection.ClientOutput.Write(Preface);
        connection.ClientOutput.Write(bytes);
        await connection.ClientOutput.FlushAsync();

        var run = Task.Run(() => new Http2Connection(connection, application.HandleAsync, Limits, Tracker, tls: false).RunAsync());
        await Task.WhenAny(run, connection.ServerInput.Waiting);
        await SettleAsync(application, run);
        await connection.ClientOutput.CompleteAsync();

        if (await Task.WhenAny(run, Task.Delay(EndBound)) != run)
        {
            throw new OracleViolation($"the connection did not end within {EndBound.TotalSeconds} s of the client's end");
        }

        await run;
        var output = await ReadAllAsync(connection.ClientInput);
        ServerFrames.Check(output, ClientFrames.Read(bytes), connection.Aborted);
    }

    /// <summary>Waits until no work is queued and no handler runs without waiting for the client, within <see cref="SettleBound"/>.</summary>
    private static async Task SettleAsync(FuzzApplication application, Task run)
    {
        var until = Environment.TickCount64 + (long)SettleBound.TotalMilliseconds;
        var quiet = 0;
        while (!run.IsCompleted && quiet < 3 && Environment.TickCount64 < until)
        {
            quiet = ThreadPool.PendingWorkItemCount == 0 && application.Busy == 0 ? quiet + 1 : 0;
            await Task.Yield();
        }
    }

    private static async Task<byte[]> ReadAllAsync(PipeReader reader)
    {
        while (true)
        {
            var result = await reader.ReadAsync();
            if (result.IsCompleted)
            {
                var output = result.Buffer.ToArray();
                reader.AdvanceTo(result.Buffer.End);
                return output;
            }

            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }
}
