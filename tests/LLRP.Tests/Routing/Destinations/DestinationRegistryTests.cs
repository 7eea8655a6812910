using LLRP.Configuration;
using static LLRP.Tests.Routing.Destinations.TestDestinations;

namespace LLRP.Tests.Routing.Destinations;

/// <summary>A reload replaces the set only when it changed, and keeps the objects (and so the state) of the destinations that stay.</summary>
public sealed class DestinationRegistryTests
{
    [Fact]
    public void Update_SameDestinationsSameWeights_ChangesNothing()
    {
        var options = Options(2, 1);
        var registry = Registry(options);
        var before = registry.Current;

        Assert.False(registry.Update([.. options.Destinations.Select(d => new DestinationOptions(DestinationEndpoint.TryParse(d.Endpoint.ToString())!, d.Weight))]));
        Assert.Same(before, registry.Current);
    }

    [Fact]
    public void Update_NewWeight_KeepsTheDestinationsObject()
    {
        var options = Options(2, 1);
        var registry = Registry(options);
        var a = registry.Current[0];

        Assert.True(registry.Update([options.Destinations[0] with { Weight = 5 }, options.Destinations[1]]));
        Assert.Same(a, registry.Current[0]);
        Assert.Equal(5, a.Weight);
    }

    [Fact]
    public void Update_Reordered_IsAChange_AndIndexesFollow()
    {
        var options = Options(1, 1);
        var registry = Registry(options);
        var (a, b) = (registry.Current[0], registry.Current[1]);

        Assert.True(registry.Update([options.Destinations[1], options.Destinations[0]]));
        Assert.Equal([b, a], registry.Current);
        Assert.Equal(0, b.Index);
        Assert.Equal(1, a.Index);
    }

    [Fact]
    public void Update_DownToOneDestination_ItCanNoLongerBeEjected()
    {
        var options = Options(1, 1);
        var registry = Registry(options);
        var a = registry.Current[0];
        Assert.True(a.Health.CanEject);

        Assert.True(registry.Update([options.Destinations[0]]));
        Assert.False(a.Health.CanEject);
    }
}
