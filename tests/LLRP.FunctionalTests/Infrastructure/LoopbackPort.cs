using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

public static class LoopbackPort
{
    /// <summary>The sockets that keep <see cref="Closed"/>'s ports taken until the test process ends.</summary>
    private static readonly ConcurrentBag<Socket> Held = [];

    /// <summary>
    /// A loopback port nothing listens on, and nothing will while the tests run: a socket stays bound to it without
    /// listening, so a connect there is refused, and no other listener (another test's origin or proxy) can be given it.
    /// </summary>
    public static int Closed()
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        socket.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        Held.Add(socket);
        return ((IPEndPoint)socket.LocalEndPoint!).Port;
    }
}
