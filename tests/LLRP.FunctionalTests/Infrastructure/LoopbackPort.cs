using System.Net;
using System.Net.Sockets;

namespace LLRP.FunctionalTests.Infrastructure;

public static class LoopbackPort
{
    /// <summary>A loopback port nothing listens on: one the system just gave out and was released at once.</summary>
    public static int Closed()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}
