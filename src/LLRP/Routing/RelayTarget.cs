using LLRP.Diagnostics;
using LLRP.Routing.Destinations;

namespace LLRP.Routing;

/// <summary>Where a relayed connection went (<see cref="RelayRouting.ConnectAsync{T}"/>): its destination, holding a slot, and its upstream connection; or why none.</summary>
/// <param name="Destination">The destination connected to (its slot held until <see cref="Destination.Exit"/>), else the last one tried, or null when none was available.</param>
/// <param name="Connection">The upstream connection; null on failure.</param>
/// <param name="Error">None when connected.</param>
internal readonly record struct RelayTarget<T>(Destination? Destination, T? Connection, ForwarderError Error)
    where T : class;
