using System.Net;
using System.Net.Sockets;

namespace LLRP.Bench.Processes;

/// <summary>Checks that nothing listens on a loopback port before a server is started there.</summary>
public static class LoopbackPorts
{
    /// <summary>True when a listener could bind 127.0.0.1:<paramref name="port"/> (TIME_WAIT leftovers do not count).</summary>
    public static bool IsFree(int port)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        try
        {
            socket.Bind(new IPEndPoint(IPAddress.Loopback, port));
            socket.Listen();
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>
    /// The port <paramref name="user"/> listens on: <paramref name="preferred"/> when it is free, else the next free one
    /// upwards (skipping <paramref name="taken"/>), and then said loudly, on stderr and in <paramref name="moves"/> (the
    /// report's notes): the figures of a run whose ports moved are not comparable with a run's whose did not.
    /// </summary>
    public static int Claim(string user, int preferred, ICollection<string> moves, params int[] taken)
    {
        var port = FirstFree(preferred, taken);
        if (port != preferred)
        {
            var move = $"port {preferred} was in use ({(taken.Contains(preferred) ? "by this run" : "by another process: ss -ltnp shows which")}), so {user} listened on port {port} instead";
            Console.Error.WriteLine($"bench: WARNING: {move}");
            moves.Add(move);
        }

        return port;
    }

    /// <summary>The first free port from <paramref name="preferred"/> upwards, skipping <paramref name="taken"/>.</summary>
    private static int FirstFree(int preferred, params int[] taken)
    {
        for (var port = preferred; port < Math.Min(preferred + 1000, 65536); port++)
        {
            if (!taken.Contains(port) && IsFree(port))
            {
                return port;
            }
        }

        throw new InvalidOperationException($"no free loopback port in [{preferred}, {preferred + 1000})");
    }

    /// <summary>Polls until the port is free; false if it still is not after <paramref name="timeout"/>.</summary>
    public static async Task<bool> WaitUntilFreeAsync(int port, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (!IsFree(port))
        {
            if (DateTime.UtcNow > deadline)
            {
                return false;
            }

            await Task.Delay(100);
        }

        return true;
    }
}
