using System.Net;
using System.Net.Sockets;
using LLRP.FunctionalTests.Http2;

namespace LLRP.FunctionalTests.ProxyProtocol;

/// <summary>HTTP/2 clients whose connections start with a PROXY protocol v2 header (proxy-protocol.txt §2.2), as a load balancer in front of the proxy sends it.</summary>
public static class ProxyHeaderClients
{
    private static readonly byte[] Signature = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A];

    /// <summary>A v2 header (§2.2): the signature, version and command, family, the block's length, the block.</summary>
    public static byte[] V2(byte versionCommand, byte family, byte[] block) => [.. Signature, versionCommand, family, 0x00, (byte)block.Length, .. block];

    /// <summary>
    /// An HTTP/2 client (h2c, or h2 by ALPN over https) to 127.0.0.1:<paramref name="port"/> whose connections start with
    /// a v2 PROXY header from <paramref name="source"/>, port 4000, to 127.0.0.1:<paramref name="port"/>.
    /// </summary>
    public static HttpClient Create(int port, string source = "203.0.113.7") => Http2Clients.Create(new SocketsHttpHandler
    {
        UseProxy = false,
        SslOptions = { RemoteCertificateValidationCallback = (_, _, _, _) => true },
        ConnectCallback = async (_, token) =>
        {
            var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port), token);
                byte[] block = [.. IPAddress.Parse(source).GetAddressBytes(), .. IPAddress.Loopback.GetAddressBytes(), 0x0F, 0xA0, (byte)(port >> 8), (byte)port];
                await socket.SendAsync(V2(0x21, 0x11, block), SocketFlags.None, token);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        },
    });
}
