namespace LLRP.Http2.Codec;

/// <summary>A stream that may wait for the connection send window of its <see cref="FrameOutput{TStream}"/> to open.</summary>
internal interface IWindowWaiter
{
    /// <summary>Wakes what waits for a window. Under the output's lock.</summary>
    void WakeSender();
}
