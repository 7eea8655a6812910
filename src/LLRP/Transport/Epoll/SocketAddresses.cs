using System.Buffers.Binary;
using System.Net;

namespace LLRP.Transport.Epoll;

/// <summary>IPv4 and IPv6 addresses as the kernel writes and reads them (<c>sockaddr_in</c>, <c>sockaddr_in6</c>).</summary>
internal static unsafe class SocketAddresses
{
    /// <returns>The address at <paramref name="address"/>; null for a family other than IPv4 and IPv6.</returns>
    public static IPEndPoint? Read(byte* address)
    {
        var bytes = new ReadOnlySpan<byte>(address, LinuxCalls.SocketAddressSize);
        var port = BinaryPrimitives.ReadUInt16BigEndian(bytes[2..]);
        return *(ushort*)address switch
        {
            LinuxCalls.AfInet => new IPEndPoint(new IPAddress(bytes.Slice(4, 4)), port),
            LinuxCalls.AfInet6 => new IPEndPoint(new IPAddress(bytes.Slice(8, 16), BinaryPrimitives.ReadUInt32LittleEndian(bytes[24..])), port),
            _ => null,
        };
    }

    /// <summary>Writes <paramref name="endPoint"/> at <paramref name="address"/> (<see cref="LinuxCalls.SocketAddressSize"/> bytes).</summary>
    /// <returns>Its length.</returns>
    public static uint Write(IPEndPoint endPoint, byte* address)
    {
        var bytes = new Span<byte>(address, LinuxCalls.SocketAddressSize);
        bytes.Clear();
        BinaryPrimitives.WriteUInt16BigEndian(bytes[2..], (ushort)endPoint.Port);
        if (endPoint.AddressFamily == System.Net.Sockets.AddressFamily.InterNetwork)
        {
            *(ushort*)address = LinuxCalls.AfInet;
            endPoint.Address.TryWriteBytes(bytes.Slice(4, 4), out _);
            return 16;
        }

        *(ushort*)address = LinuxCalls.AfInet6;
        endPoint.Address.TryWriteBytes(bytes.Slice(8, 16), out _);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes[24..], (uint)endPoint.Address.ScopeId);
        return LinuxCalls.SocketAddressSize;
    }
}
