using System.Buffers;
using LLRP.Http2.Codec;
using LLRP.Upstream;

namespace LLRP.Http2.Server;

/// <summary>
/// The response's field lines given as bytes (<see cref="IResponseFieldLinesFeature"/>), encoded at once into a block of
/// their own that <see cref="StartAsync"/> puts after <c>:status</c> and before the fields of <c>HttpResponse.Headers</c>.
/// </summary>
internal sealed partial class Http2Stream : IResponseFieldLinesFeature
{
    private readonly ArrayBufferWriter<byte> _fieldLines = new(512);

    HpackFieldSink IResponseFieldLinesFeature.StartFieldLines(int status)
    {
        if (_started)
        {
            throw new InvalidOperationException("The response has started.");
        }

        _status = status;
        _fieldLines.ResetWrittenCount();
        return new HpackFieldSink(_fieldLines);
    }
}
