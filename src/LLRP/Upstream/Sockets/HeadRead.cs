using System.IO.Pipelines;
using LLRP.Diagnostics;

namespace LLRP.Upstream.Sockets;

/// <summary>A response head read from an upstream connection: the read it ends in and its length, or why there is none.</summary>
internal readonly record struct HeadRead(ForwarderError Error, ReadResult Result, int Length);
