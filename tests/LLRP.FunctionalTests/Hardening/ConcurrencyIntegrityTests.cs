using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>
/// Many connections, pipelined batches and random body sizes at once: every response the client receives complete is
/// the response to its own request (RFC 9112 §9.3.2), and a response the proxy could not finish is an aborted
/// connection, never a wrong body in a right-looking frame.
/// </summary>
public sealed class ConcurrencyIntegrityTests
{
    private const int EchoConnections = 32;
    private const int EchoRequestsPerConnection = 50;
    private const int FlakyConnections = 16;
    private const int FlakyRequestsPerConnection = 40;

    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task Echo_ConcurrentPipelinedRequestsEachGetTheirOwnResponse(string mode)
    {
        await using var stack = await ProxiedDownstream.StartAsync(mode);
        var problems = new ConcurrentQueue<string>();

        await Task.WhenAll(Enumerable.Range(0, EchoConnections).Select(connection => RunEchoClientAsync(stack, connection, problems)));

        Assert.True(problems.IsEmpty, $"{problems.Count} mismatches, first ones:\n{string.Join("\n", problems.Take(10))}");
    }

    [Theory]
    [MemberData(nameof(LlrpModes.AllWithSharedClients), MemberType = typeof(LlrpModes))]
    public async Task FlakyOrigin_CompleteResponsesAreRightAndCutOnesAborted(string mode)
    {
        await using var origin = ScriptedOrigin.Start(AnswerFlakilyAsync);
        await using var proxy = await TestHosts.StartProxyAsync(origin.Url, mode);
        var problems = new ConcurrentQueue<string>();
        var outcomes = new ConcurrentDictionary<string, int>();

        await Task.WhenAll(Enumerable.Range(0, FlakyConnections).Select(worker => RunFlakyClientAsync(proxy, worker, problems, outcomes)));

        var summary = string.Join(", ", outcomes.Select(pair => $"{pair.Key}: {pair.Value}"));
        Assert.True(problems.IsEmpty, $"{problems.Count} wrong responses ({summary}), first ones:\n{string.Join("\n", problems.Take(10))}");
        Assert.True(outcomes.GetValueOrDefault("complete") > 0 && outcomes.GetValueOrDefault("aborted") > 0, $"The faults did not all happen: {summary}");
    }

    private static async Task RunEchoClientAsync(ProxiedDownstream stack, int connection, ConcurrentQueue<string> problems)
    {
        var random = new Random(connection);
        await using var client = await stack.ConnectAsync();
        for (var sent = 0; sent < EchoRequestsPerConnection;)
        {
            var batch = Enumerable.Range(sent, Math.Min(random.Next(1, 5), EchoRequestsPerConnection - sent))
                .Select(index => EchoRequest(connection, index, random))
                .ToArray();
            var sending = client.SendAsync(batch.SelectMany(request => request.Wire).ToArray());
            foreach (var (target, body, _) in batch)
            {
                var response = await client.ReadResponseAsync("POST");
                if (response.StatusCode != 200
                    || response.Head.Get("X-Echo-Target") != target
                    || DownstreamBody.Sha256(response.Body) != DownstreamBody.Sha256(body))
                {
                    problems.Enqueue($"{target} ({body.Length} bytes) got {response.StatusCode}, X-Echo-Target {response.Head.Get("X-Echo-Target")}, {response.Body.Length} bytes");
                }
            }

            await sending;
            sent += batch.Length;
        }
    }

    /// <summary>A POST to <c>/echo</c> with a unique target and 0–64 KiB of random bytes, framed by Content-Length or chunked.</summary>
    private static (string Target, byte[] Body, byte[] Wire) EchoRequest(int connection, int index, Random random)
    {
        var target = $"/echo?id={connection}-{index}";
        var body = new byte[random.Next(0, 64 * 1024 + 1)];
        random.NextBytes(body);
        using var wire = new MemoryStream();
        if (random.Next(4) == 0)
        {
            wire.Write(Encoding.Latin1.GetBytes($"POST {target} HTTP/1.1\r\nHost: echo.test\r\nTransfer-Encoding: chunked\r\n\r\n"));
            for (var offset = 0; offset < body.Length;)
            {
                var size = Math.Min(body.Length - offset, random.Next(1, 20000));
                wire.Write(Encoding.Latin1.GetBytes($"{size:x}\r\n"));
                wire.Write(body, offset, size);
                wire.Write("\r\n"u8);
                offset += size;
            }

            wire.Write("0\r\n\r\n"u8);
        }
        else
        {
            wire.Write(Encoding.Latin1.GetBytes($"POST {target} HTTP/1.1\r\nHost: echo.test\r\nContent-Length: {body.Length}\r\n\r\n"));
            wire.Write(body);
        }

        return (target, body, wire.ToArray());
    }

    private static async Task RunFlakyClientAsync(HostedApp proxy, int worker, ConcurrentQueue<string> problems, ConcurrentDictionary<string, int> outcomes)
    {
        var random = new Random(1000 + worker);
        var client = await proxy.ConnectAsync();
        try
        {
            for (var next = 0; next < FlakyRequestsPerConnection;)
            {
                var batch = Enumerable.Range(next, Math.Min(random.Next(1, 4), FlakyRequestsPerConnection - next))
                    .Select(index => FlakyRequest(worker, index, random))
                    .ToArray();
                next += batch.Length;
                if (await ExchangeFlakyBatchAsync(client, batch, problems, outcomes) is var outcome && outcome != "complete")
                {
                    outcomes.AddOrUpdate(outcome, 1, (_, count) => count + 1);
                    await client.DisposeAsync();
                    client = await proxy.ConnectAsync();
                }
            }
        }
        finally
        {
            await client.DisposeAsync();
        }
    }

    /// <summary>Sends a batch and checks its responses; returns "complete", or what ended the connection early.</summary>
    private static async Task<string> ExchangeFlakyBatchAsync(
        RawHttpClient client,
        (string Method, string Target, byte[] Wire)[] batch,
        ConcurrentQueue<string> problems,
        ConcurrentDictionary<string, int> outcomes)
    {
        try
        {
            await client.SendAsync(batch.SelectMany(request => request.Wire).ToArray());
        }
        catch (IOException)
        {
            return "aborted";
        }

        foreach (var (method, target, _) in batch)
        {
            RawHttpResponse response;
            try
            {
                response = await client.ReadResponseAsync(method);
            }
            catch (InvalidDataException e)
            {
                problems.Enqueue($"{method} {target}: malformed response: {e.Message}");
                return "malformed";
            }
            catch (IOException)
            {
                return "aborted";
            }

            if (response.StatusCode == 502)
            {
                if (!response.Head.Tokens("Connection").Contains("close"))
                {
                    problems.Enqueue($"{method} {target}: 502 without Connection: close");
                }

                return "502";
            }

            if (response.StatusCode != 200 || response.Head.Get("X-Target") != target || response.BodyText != FlakyBody(target))
            {
                problems.Enqueue($"{method} {target} got:\n{response}");
            }

            outcomes.AddOrUpdate("complete", 1, (_, count) => count + 1);
        }

        return "complete";
    }

    private static (string Method, string Target, byte[] Wire) FlakyRequest(int worker, int index, Random random)
    {
        var target = $"/flaky/{worker}/{index}";
        if (random.Next(3) > 0)
        {
            return ("GET", target, Encoding.Latin1.GetBytes($"GET {target} HTTP/1.1\r\nHost: flaky.test\r\n\r\n"));
        }

        var body = new string('p', random.Next(0, 3000));
        return ("POST", target, Encoding.Latin1.GetBytes($"POST {target} HTTP/1.1\r\nHost: flaky.test\r\nContent-Length: {body.Length}\r\n\r\n{body}"));
    }

    /// <summary>The body the flaky origin sends for <paramref name="target"/>: the target repeated, 100 to 8 000 bytes.</summary>
    private static string FlakyBody(string target)
    {
        var length = 100 + (int)((uint)target.Aggregate(17, (hash, c) => (hash * 31) + c) % 7900);
        var body = new StringBuilder(length);
        while (body.Length < length)
        {
            body.Append(target).Append(';');
        }

        return body.ToString(0, length);
    }

    /// <summary>
    /// Answers each request with its <see cref="FlakyBody"/>, but now and then closes or resets before answering, or
    /// in the middle of a Content-Length or chunked body.
    /// </summary>
    private static async Task AnswerFlakilyAsync(OriginConnection connection)
    {
        var random = new Random(connection.Index);
        while (await connection.ReadRequestAsync() is { } request)
        {
            var body = FlakyBody(request.Target);
            var fate = random.Next(20);
            var chunked = fate % 2 == 0;
            var head = $"HTTP/1.1 200 OK\r\nX-Target: {request.Target}\r\n"
                + (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : $"Content-Length: {body.Length}\r\n\r\n");
            var cut = random.Next(1, body.Length);
            var first = chunked ? $"{cut:x}\r\n{body[..cut]}\r\n" : body[..cut];
            var rest = chunked ? $"{body.Length - cut:x}\r\n{body[cut..]}\r\n0\r\n\r\n" : body[cut..];
            switch (fate)
            {
                case 0:
                    return;
                case 1:
                    connection.Reset();
                    return;
                case < 6:
                    await connection.SendAsync(head + first);
                    await Task.Delay(random.Next(3));
                    if (fate < 4)
                    {
                        connection.Reset();
                    }

                    return;
                default:
                    await connection.SendAsync(head + first);
                    await connection.SendAsync(rest);
                    break;
            }
        }
    }
}
