namespace LLRP.Transport.Epoll;

/// <summary><c>struct iovec</c>: one buffer of a gathered send.</summary>
internal unsafe struct IoVector
{
    public byte* Base;
    public nuint Length;
}
