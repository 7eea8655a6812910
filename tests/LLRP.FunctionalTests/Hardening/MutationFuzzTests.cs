// A seeded, bounded mutation fuzzer over the raw request path. CI runs 2000 cases from a fixed seed; a long run:
//   LLRP_FUZZ_CASES=1000000 LLRP_FUZZ_SEED=12345 dotnet test --filter MutationFuzzTests
// A failure names its seed and case index; replay that case alone with
//   LLRP_FUZZ_SEED=<seed> LLRP_FUZZ_FIRST=<index> LLRP_FUZZ_CASES=1 dotnet test --filter MutationFuzzTests
using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// Sends mutated requests (<see cref="RequestMutator"/>) through the proxy to an origin that strictly parses what it
/// receives and answers every complete request with 200. Oracles, per case: the proxy answers or closes in time after
/// the client half-closes (no hang); it stays alive; every request it forwarded is well-formed and canonical
/// (<see cref="ForwardedRequestRules"/>); the origin completed as many requests as the client got 2xx responses; every
/// error response says <c>Connection: close</c> and is the last thing sent.
/// </summary>
public sealed class MutationFuzzTests
{
    private const string OriginResponse = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    private const int LivenessInterval = 100;

    /// <summary>
    /// Every configuration but raw/pooled (over either transport): the oracle waits for each case's upstream connections to
    /// close, and pooled ones stay open for reuse.
    /// </summary>
    public static TheoryData<string> Modes => new(LlrpModes.Every.Where(mode => mode is not (LlrpModes.RawPooled or LlrpModes.RawPooledSockets)));

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task MutatedRequests_ProxyAnswersOrClosesAndForwardsOnlyCanonicalRequests(string mode)
    {
        var seed = Setting("LLRP_FUZZ_SEED", 20250611);
        var first = Setting("LLRP_FUZZ_FIRST", 0);
        var cases = Setting("LLRP_FUZZ_CASES", 2000);
        var violations = new ConcurrentQueue<string>();
        var completed = new ConcurrentDictionary<int, int>();
        await using var origin = ScriptedOrigin.Start(connection => ReadStrictlyAsync(connection, violations, completed));
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode, "timeouts.requestHeadersMs=2000");
        var forwarded = 0;
        var refused = 0;

        for (var index = first; index < first + cases; index++)
        {
            var request = RequestMutator.CreateCase(new Random(unchecked(seed + (index * 7919))));
            var connectionsBefore = origin.Connections.Count;
            string? problem;
            byte[] received = [];
            try
            {
                received = await ExchangeAsync(proxy, request);
                await origin.ConnectionsEndedAsync();
                var originCompleted = origin.Connections.Skip(connectionsBefore).Sum(connection => completed.GetValueOrDefault(connection.Index));
                problem = violations.TryDequeue(out var violation) ? violation : await CheckResponsesAsync(received, originCompleted);
                forwarded += originCompleted > 0 ? 1 : 0;
                refused += originCompleted == 0 ? 1 : 0;
                if (problem is null && (index - first) % LivenessInterval == LivenessInterval - 1)
                {
                    problem = await CheckAliveAsync(proxy);
                }
            }
            catch (Exception e) when (e is IOException or TimeoutException or InvalidDataException)
            {
                problem = $"{e.GetType().Name}: {e.Message}";
            }

            if (problem is not null)
            {
                var originBytes = origin.Connections.Skip(connectionsBefore).SelectMany(connection => connection.Reader.Received).ToArray();
                Assert.Fail(
                    $"Fuzz case {index} failed (replay: LLRP_FUZZ_SEED={seed} LLRP_FUZZ_FIRST={index} LLRP_FUZZ_CASES=1): {problem}\n"
                    + $"sent:   {Escape(request)}\nclient got: {Escape(received)}\norigin got: {Escape(originBytes)}");
            }
        }

        Assert.Null(await CheckAliveAsync(proxy));
        Assert.True(cases < 100 || (forwarded > cases / 10 && refused > cases / 10), $"The cases no longer exercise both paths: {forwarded} forwarded, {refused} refused.");
    }

    /// <summary>Sends the case, half-closes, and reads until the proxy closes (a reset ends the read too).</summary>
    private static async Task<byte[]> ExchangeAsync(HostedApp proxy, byte[] request)
    {
        await using var client = await proxy.ConnectAsync();
        try
        {
            await client.SendAsync(request);
            client.ShutdownSend();
            await client.ReadToEndAsync();
        }
        catch (IOException)
        {
            // The proxy reset the connection: what it sent before is what counts.
        }

        return client.Received;
    }

    /// <summary>Null when what the client received is a well-formed sequence of responses that agrees with the origin.</summary>
    private static async Task<string?> CheckResponsesAsync(byte[] received, int originCompleted)
    {
        var reader = new WireReader(new MemoryStream(received));
        var successes = 0;
        var closed = false;
        while (await HttpHead.ReadAsync(reader) is { } head)
        {
            if (closed)
            {
                return "a response followed one that said Connection: close";
            }

            var status = RawHttpResponse.StatusCodeOf(head);
            var framing = MessageFraming.OfResponse(head, "GET", status, out var contentLength);
            var response = new RawHttpResponse(head, framing, await MessageFraming.ReadBodyAsync(reader, framing, contentLength));
            closed = response.Head.Tokens("Connection").Contains("close");
            if (status is >= 200 and < 300)
            {
                successes++;
                if (status != 200 || response.BodyText != "ok")
                {
                    return $"a 2xx response that is not the origin's:\n{response}";
                }
            }
            else if (status >= 400 && !closed)
            {
                return $"an error response without Connection: close:\n{response}";
            }
        }

        return successes == originCompleted
            ? null
            : $"the client got {successes} 2xx responses, but the origin completed {originCompleted} requests";
    }

    private static async Task<string?> CheckAliveAsync(HostedApp proxy)
    {
        await using var client = await proxy.ConnectAsync();
        await client.SendAsync("GET /alive HTTP/1.1\r\nHost: fuzz.test\r\nConnection: close\r\n\r\n");
        var response = await client.ReadResponseAsync();
        return response.StatusCode == 200 && response.BodyText == "ok" ? null : $"the proxy no longer serves a normal request:\n{response}";
    }

    /// <summary>
    /// Reads requests as a strict HTTP/1.1 server would, answering each complete one. A head must always arrive whole and
    /// well-formed; a body may be cut short (the proxy aborting a request whose client went away), nothing else.
    /// </summary>
    private static async Task ReadStrictlyAsync(OriginConnection connection, ConcurrentQueue<string> violations, ConcurrentDictionary<int, int> completed)
    {
        while (true)
        {
            HttpHead? head;
            try
            {
                head = await HttpHead.ReadAsync(connection.Reader);
            }
            catch (IOException e) when (e is not EndOfStreamException && connection.Reader.Buffered == 0)
            {
                // A reset between requests: the proxy discarded the connection when its client left.
                return;
            }
            catch (Exception e) when (e is IOException or InvalidDataException)
            {
                violations.Enqueue($"the origin received a cut or malformed head: {e.Message}");
                return;
            }

            if (head is null)
            {
                return;
            }

            ReceivedRequest request;
            try
            {
                var framing = MessageFraming.OfRequest(head, out var contentLength);
                request = new ReceivedRequest(head, framing, await MessageFraming.ReadBodyAsync(connection.Reader, framing, contentLength));
            }
            catch (InvalidDataException e)
            {
                violations.Enqueue($"the origin received a malformed request: {e.Message}");
                return;
            }
            catch (IOException)
            {
                return;
            }

            if (ForwardedRequestRules.Check(request) is [_, ..] problems)
            {
                violations.Enqueue($"the origin received a non-canonical request ({string.Join("; ", problems)}):\n{request}");
            }

            completed.AddOrUpdate(connection.Index, 1, (_, count) => count + 1);
            await connection.SendAsync(OriginResponse);
        }
    }

    private static int Setting(string name, int defaultValue) =>
        Environment.GetEnvironmentVariable(name) is { Length: > 0 } value ? int.Parse(value, CultureInfo.InvariantCulture) : defaultValue;

    private static string Escape(byte[] bytes)
    {
        var text = new StringBuilder();
        foreach (var b in bytes)
        {
            text.Append(b switch
            {
                (byte)'\r' => "\\r",
                (byte)'\n' => "\\n",
                (byte)'\t' => "\\t",
                (byte)'\\' => "\\\\",
                < 0x20 or >= 0x7F => $"\\x{b:x2}",
                _ => ((char)b).ToString(),
            });
        }

        return text.ToString();
    }
}
