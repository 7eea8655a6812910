using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>One connection through a <see cref="TcpRelay"/>: two pumps, each keeping the first bytes it carried.</summary>
public sealed class RelayedConnection : IAsyncDisposable
{
    /// <summary>How many bytes of each direction are kept: more than a TLS ClientHello or ServerHello record.</summary>
    private const int Kept = 16 * 1024;

    private readonly Socket _client;
    private readonly Socket _server;
    private readonly MemoryStream _fromClient = new();
    private readonly MemoryStream _fromServer = new();
    private readonly Task _pumping;

    public RelayedConnection(Socket client, Socket server)
    {
        _client = client;
        _server = server;
        _pumping = Task.WhenAll(PumpAsync(client, server, _fromClient), PumpAsync(server, client, _fromServer));
    }

    /// <summary>The first bytes the connecting side sent.</summary>
    public byte[] FromClient => Snapshot(_fromClient);

    /// <summary>The first bytes the target sent back.</summary>
    public byte[] FromServer => Snapshot(_fromServer);

    public async ValueTask DisposeAsync()
    {
        _client.Dispose();
        _server.Dispose();
        await _pumping.WaitAsync(Deadline.Io);
    }

    private static byte[] Snapshot(MemoryStream kept)
    {
        lock (kept)
        {
            return kept.ToArray();
        }
    }

    private static async Task PumpAsync(Socket from, Socket to, MemoryStream kept)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            int count;
            while ((count = await from.ReceiveAsync(buffer, SocketFlags.None)) > 0)
            {
                lock (kept)
                {
                    kept.Write(buffer, 0, Math.Min(count, Math.Max(0, Kept - (int)kept.Length)));
                }

                await to.SendAsync(buffer.AsMemory(0, count), SocketFlags.None);
            }

            to.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // One side went away: so does the other.
            from.Dispose();
            to.Dispose();
        }
    }
}
