using System.Net;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace LLRP.Hosting;

/// <summary>
/// The proxy's listeners (<c>urls</c>) and the admin listener's (<c>admin.urls</c>), apart: each address as configured,
/// with the port really bound once Kestrel has started (port 0 takes one the system chooses).
/// </summary>
internal sealed class BoundListeners
{
    private readonly List<(string Url, ListenOptions Listen)> _proxy = [];
    private readonly List<(string Url, ListenOptions Listen)> _admin = [];
    private readonly Dictionary<string, ListenOptions> _tcp = [];

    public IReadOnlyCollection<string> Proxy => [.. _proxy.Select(Address)];

    public IReadOnlyCollection<string> Admin => [.. _admin.Select(Address)];

    public void AddProxy(string url, ListenOptions listen) => _proxy.Add((url, listen));

    public void AddAdmin(string url, ListenOptions listen) => _admin.Add((url, listen));

    public void AddTcp(string routeId, ListenOptions listen) => _tcp.Add(routeId, listen);

    /// <summary>The address the TCP route <paramref name="routeId"/> is bound to, with the port the system chose for port 0.</summary>
    public IPEndPoint Tcp(string routeId) => (IPEndPoint)_tcp[routeId].EndPoint;

    private static string Address((string Url, ListenOptions Listen) listener)
    {
        var address = BindingAddress.Parse(listener.Url);
        return address.IsUnixPipe || listener.Listen.EndPoint is not IPEndPoint bound
            ? listener.Url
            : $"{address.Scheme}://{address.Host}:{bound.Port}";
    }
}
