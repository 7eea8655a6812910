namespace LLRP.Transport.Epoll;

/// <summary><c>struct msghdr</c> (64-bit Linux) for a gathered <c>sendmsg</c>: no address, no control data.</summary>
internal unsafe struct MessageHeader
{
    public void* Name;
    public uint NameLength;
    public IoVector* Vectors;
    public nuint VectorCount;
    public void* Control;
    public nuint ControlLength;
    public int Flags;
}
