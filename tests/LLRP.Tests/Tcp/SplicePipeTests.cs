using LLRP.Tcp.Splice;
using LLRP.Transport.Epoll;

namespace LLRP.Tests.Tcp;

/// <summary>
/// The relay's splice pipes: a pipe widened for an upload holds 1 MiB in the kernel (<c>F_GETPIPE_SZ</c>), and the
/// process widens at most 16 at once, so its pipes stay within a quarter of Linux's default per-user pipe pages.
/// </summary>
public sealed class SplicePipeTests
{
    [Fact]
    public void A_widened_pipe_holds_1_MiB_and_an_unwidened_one_64_KiB()
    {
        var wide = SplicePipe.Open()!;
        var narrow = SplicePipe.Open()!;
        try
        {
            Assert.True(wide.TryWiden());
            Assert.True(wide.IsWide);
            Assert.False(narrow.IsWide);
            Assert.Equal(SplicePipe.WideCapacity, LinuxCalls.Control(wide.WriteEnd, LinuxCalls.FGetPipeSize, 0));
            Assert.Equal(SplicePipe.Capacity, LinuxCalls.Control(narrow.WriteEnd, LinuxCalls.FGetPipeSize, 0));
        }
        finally
        {
            wide.Close();
            narrow.Close();
        }
    }

    [Fact]
    public void At_most_16_pipes_are_wide_at_once_and_a_closed_one_frees_its_place()
    {
        var pipes = Enumerable.Range(0, 17).Select(_ => SplicePipe.Open()!).ToList();
        try
        {
            Assert.All(pipes.Take(16), pipe => Assert.True(pipe.TryWiden()));
            Assert.False(pipes[16].TryWiden());
            Assert.Equal(SplicePipe.Capacity, LinuxCalls.Control(pipes[16].WriteEnd, LinuxCalls.FGetPipeSize, 0));

            pipes[0].Close();
            pipes.RemoveAt(0);
            Assert.True(pipes[15].TryWiden());
        }
        finally
        {
            pipes.ForEach(pipe => pipe.Close());
        }
    }
}
