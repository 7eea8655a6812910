using LLRP.Diagnostics;

namespace LLRP.Tests.Diagnostics;

public class LogGateTests
{
    [Fact]
    public void TryPass_OncePerSecond_CountsWhatItHeldBack()
    {
        var gate = default(LogGate);

        Assert.True(gate.TryPass(10_000, out var first));
        Assert.Equal(0, first);
        Assert.False(gate.TryPass(10_001, out _));
        Assert.False(gate.TryPass(10_999, out _));
        Assert.True(gate.TryPass(11_000, out var afterASecond));
        Assert.Equal(2, afterASecond);
        Assert.False(gate.TryPass(11_500, out _));
    }
}
