using LLRP.Configuration;
using LLRP.Transport.Epoll;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Hosting;

/// <summary>
/// The transport of <c>transport</c>: with <c>epoll</c>, its event loops (<c>threadCount</c>, else one per core) and its
/// listener factory, registered after Kestrel's sockets transport so that Kestrel binds every IP address of <c>urls</c> and
/// <c>admin.urls</c> with it (Unix sockets stay on the sockets transport).
/// </summary>
internal static class TransportServices
{
    public static void Add(IServiceCollection services, ProxyOptions options)
    {
        if (options.Transport != TransportKind.Epoll)
        {
            return;
        }

        services.AddSingleton(_ => new EpollTransport(options.ThreadCount ?? Environment.ProcessorCount));
        services.AddSingleton<IConnectionListenerFactory, EpollListenerFactory>();
    }
}
