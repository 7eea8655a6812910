namespace LLRP.Configuration;

/// <summary>One destination as configured: where it is, and its weight for the policies that use weights.</summary>
/// <param name="Endpoint">Its base URI.</param>
/// <param name="Weight">1 to <see cref="MaxWeight"/>; 1 unless given.</param>
/// <param name="Name">Its name in its cluster (the key of a <c>ReverseProxy</c> destination); null for its base URI.</param>
/// <param name="Host">The <c>Host</c> its requests carry (YARP's destination <c>Host</c>); null for the base URI's authority.</param>
public sealed record DestinationOptions(DestinationEndpoint Endpoint, int Weight, string? Name = null, string? Host = null)
{
    public const int MaxWeight = 1000;
}
