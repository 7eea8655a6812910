using LLRP.Http2;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.Extensions.DependencyInjection;

namespace LLRP.Hosting;

/// <summary>
/// The first middleware of the application's request pipeline: a request of a proxy listener's HTTP/2 connection (marked
/// by <see cref="ProtocolSelection"/>) goes to the <see cref="Http2FrontEnd"/> and ends there, so nothing else the
/// pipeline holds (the admin endpoints) is reachable through a proxy port.
/// </summary>
internal static class Http2Pipeline
{
    public static void Use(WebApplication app)
    {
        var frontEnd = app.Services.GetRequiredService<Http2FrontEnd>();
        app.Use(next => context =>
            context.Features.Get<IConnectionItemsFeature>()?.Items.ContainsKey(ProtocolSelection.ProxyConnectionItem) == true
                ? frontEnd.HandleAsync(context).AsTask()
                : next(context));
    }
}
