using System.Net;
using System.Net.Sockets;
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
}
