namespace LLRP.Transport.Epoll;

/// <summary>What an <see cref="EventLoop"/> tells about a socket registered with it, always on the loop's thread.</summary>
internal interface IReadinessHandler
{
    /// <summary>epoll reported <paramref name="events"/> (<c>EPOLLIN</c>, <c>EPOLLOUT</c>, …) for the socket.</summary>
    void OnReady(uint events);

    /// <summary>A flush scheduled by <see cref="EventLoop.ScheduleFlush"/>, at the end of the loop's iteration.</summary>
    void Flush();

    /// <summary>The loop stops, or handling an event failed: the socket is closed.</summary>
    void Fail(Exception error);
}
