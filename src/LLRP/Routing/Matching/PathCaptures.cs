using LLRP.Configuration.Routes;
using System.Runtime.CompilerServices;

namespace LLRP.Routing;

/// <summary>What a template's parameters captured, as ranges into the request path, by parameter index.</summary>
[InlineArray(RouteTemplateSyntax.MaxParameters)]
internal struct PathCaptures
{
    private Range _first;
}
