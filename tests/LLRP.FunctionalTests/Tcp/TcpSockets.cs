using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using LLRP.FunctionalTests.Infrastructure;

namespace LLRP.FunctionalTests.Tcp;

/// <summary>Socket operations of the TCP tests, each bounded by <see cref="Deadline.Io"/>.</summary>
internal static class TcpSockets
{
    public static Task<Socket> ConnectAsync(int port) => ConnectAsync(new IPEndPoint(IPAddress.Loopback, port));

    public static async Task<Socket> ConnectAsync(IPEndPoint endPoint)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await Deadline.RunAsync(token => socket.ConnectAsync(endPoint, token), "connect");
        return socket;
    }

    public static Task SendAsync(Socket socket, string text)
        => Deadline.RunAsync(async token => await socket.SendAsync(System.Text.Encoding.ASCII.GetBytes(text), SocketFlags.None, token), "send");

    /// <summary>Exactly <paramref name="count"/> bytes, as ASCII.</summary>
    public static async Task<string> ReceiveAsync(Socket socket, int count)
    {
        var buffer = new byte[count];
        await Deadline.RunAsync(async token =>
        {
            var read = 0;
            while (read < count)
            {
                var n = await socket.ReceiveAsync(buffer.AsMemory(read), SocketFlags.None, token);
                if (n == 0)
                {
                    throw new IOException($"End of stream after {read} of {count} bytes.");
                }

                read += n;
            }
        }, "receive");
        return System.Text.Encoding.Latin1.GetString(buffer);
    }

    /// <summary>Reads until the peer's end of stream; returns what came before it.</summary>
    public static async Task<string> ReceiveToEndAsync(Socket socket)
    {
        var received = new MemoryStream();
        await Deadline.RunAsync(async token =>
        {
            var buffer = new byte[4096];
            int n;
            while ((n = await socket.ReceiveAsync(buffer, SocketFlags.None, token)) > 0)
            {
                received.Write(buffer, 0, n);
            }
        }, "receive to the end of stream");
        return System.Text.Encoding.Latin1.GetString(received.ToArray());
    }

    /// <summary>Reads until the connection is reset; fails if it ends otherwise.</summary>
    public static async Task AssertResetAsync(Socket socket)
    {
        var e = await Assert.ThrowsAsync<SocketException>(() => ReceiveToEndAsync(socket));
        Assert.Equal(SocketError.ConnectionReset, e.SocketErrorCode);
    }

    /// <summary>Reads until the connection ends, by a FIN or a RST: what an abort may send.</summary>
    public static async Task AssertEndedAsync(Socket socket)
    {
        try
        {
            await ReceiveToEndAsync(socket);
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
        {
            // Aborted with a RST.
        }
    }

    /// <summary>Closes with SO_LINGER 0: the peer gets RST, not FIN.</summary>
    public static void Reset(Socket socket)
    {
        socket.LingerState = new LingerOption(true, 0);
        socket.Dispose();
    }

    /// <summary>
    /// Sends until <paramref name="socket"/> has had no room for a second: every buffer between it and a peer that does not
    /// read is full, and what is between them waits for that peer. Each block differs from the others, so that a block
    /// lost, repeated or out of order changes <paramref name="hash"/>, which takes every byte sent.
    /// </summary>
    /// <returns>The bytes sent.</returns>
    public static long FillUntilFull(Socket socket, IncrementalHash? hash)
    {
        var block = new byte[64 * 1024];
        new Random(64).NextBytes(block);
        var total = 0L;
        socket.Blocking = false;
        do
        {
            int sent;
            while ((sent = socket.Send(block, 0, block.Length, SocketFlags.None, out _)) > 0)
            {
                hash?.AppendData(block, 0, sent);
                total += sent;
                BitConverter.TryWriteBytes(block, total);
            }
        }
        while (socket.Poll(TimeSpan.FromSeconds(1), SelectMode.SelectWrite));

        socket.Blocking = true;
        return total;
    }

    /// <summary>Reads exactly <paramref name="count"/> bytes; returns their SHA-256.</summary>
    public static async Task<byte[]> ReceiveHashedAsync(Socket socket, long count)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        await Deadline.RunAsync(async token =>
        {
            var buffer = new byte[256 * 1024];
            for (var left = count; left > 0;)
            {
                var n = await socket.ReceiveAsync(buffer.AsMemory(0, (int)Math.Min(buffer.Length, left)), SocketFlags.None, token);
                if (n == 0)
                {
                    throw new IOException($"End of stream after {count - left} of {count} bytes.");
                }

                hash.AppendData(buffer, 0, n);
                left -= n;
            }
        }, "receive");
        return hash.GetHashAndReset();
    }

    /// <summary>Reads until the peer's end of stream; returns how many bytes came before it and their SHA-256.</summary>
    public static async Task<(long Bytes, byte[] Hash)> ReceiveToEndHashedAsync(Socket socket)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var total = 0L;
        await Deadline.RunAsync(async token =>
        {
            var buffer = new byte[256 * 1024];
            int n;
            while ((n = await socket.ReceiveAsync(buffer, SocketFlags.None, token)) > 0)
            {
                hash.AppendData(buffer, 0, n);
                total += n;
            }
        }, "receive to the end of stream");
        return (total, hash.GetHashAndReset());
    }
}
