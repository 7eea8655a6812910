using System.Net.Sockets;

namespace LLRP.FunctionalTests.Hardening;

/// <summary>What Linux's <c>TCP_INFO</c> socket option says about one connection.</summary>
public static class TcpInfo
{
    private const int TcpInfoOption = 11;
    private const int BackoffOffset = 4;

    /// <summary>
    /// <c>tcpi_backoff</c>: how many times the retransmission timer has backed off. On a loopback connection that loses
    /// nothing, that timer is the persist timer, which sends zero-window probes while the peer advertises no room and
    /// this side has bytes to send, backing off after each; it restarts from 0 once the peer opens its window. So n
    /// means the peer's receive buffer has stayed full over n probes, because the process behind it does not read.
    /// </summary>
    public static int ZeroWindowBackoff(Socket socket)
    {
        Span<byte> info = stackalloc byte[256];
        var length = socket.GetRawSocketOption((int)SocketOptionLevel.Tcp, TcpInfoOption, info);
        return length > BackoffOffset ? info[BackoffOffset] : throw new InvalidOperationException($"TCP_INFO returned {length} bytes.");
    }
}
