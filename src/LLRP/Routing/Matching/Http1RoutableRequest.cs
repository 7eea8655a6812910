using LLRP.Http1;

namespace LLRP.Routing;

/// <summary>A parsed HTTP/1.1 request head as the route matcher reads it.</summary>
internal readonly struct Http1RoutableRequest(RequestHead head, int defaultPort) : IRoutableRequest
{
    public ReadOnlySpan<byte> Method => head.Method;

    public ReadOnlySpan<byte> Host => head.ClientAuthority;

    public int DefaultPort => defaultPort;

    public ReadOnlySpan<byte> Path
    {
        get
        {
            var target = head.Path;
            var query = target.IndexOf((byte)'?');
            return query < 0 ? target : target[..query];
        }
    }

    public ReadOnlySpan<byte> Query
    {
        get
        {
            var target = head.Path;
            var query = target.IndexOf((byte)'?');
            return query < 0 ? default : target[(query + 1)..];
        }
    }

    public int FieldCount => head.FieldCount;

    public ReadOnlySpan<byte> FieldName(int index) => head.Fields[index].Name(head.Source.Span);

    public ReadOnlySpan<byte> FieldValue(int index) => head.Fields[index].Value(head.Source.Span);
}
