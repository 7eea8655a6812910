namespace LLRP.Configuration;

/// <summary>One destination as configured: where it is, and its weight for the policies that use weights.</summary>
/// <param name="Endpoint">Its base URI.</param>
/// <param name="Weight">1 to <see cref="MaxWeight"/>; 1 unless given.</param>
public sealed record DestinationOptions(DownstreamEndpoint Endpoint, int Weight)
{
    public const int MaxWeight = 1000;
}
