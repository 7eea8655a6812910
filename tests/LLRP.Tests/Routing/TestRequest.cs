using LLRP.Routing;
using LLRP.Tests.Infrastructure;

namespace LLRP.Tests.Routing;

/// <summary>A request as the route matcher reads it, written as strings (one char per byte).</summary>
internal readonly struct TestRequest : IRoutableRequest
{
    private readonly byte[] _method;
    private readonly byte[] _host;
    private readonly byte[] _path;
    private readonly byte[] _query;
    private readonly (byte[] Name, byte[] Value)[] _fields;

    /// <param name="target">The origin-form target, path and query.</param>
    public TestRequest(string method, string host, string target, params (string Name, string Value)[] fields)
    {
        var query = target.IndexOf('?');
        _method = Text.Bytes(method);
        _host = Text.Bytes(host);
        _path = Text.Bytes(query < 0 ? target : target[..query]);
        _query = Text.Bytes(query < 0 ? "" : target[(query + 1)..]);
        _fields = [.. fields.Select(f => (Text.Bytes(f.Name), Text.Bytes(f.Value)))];
        DefaultPort = 80;
    }

    public static TestRequest Get(string target, params (string Name, string Value)[] fields) => new("GET", "example.com", target, fields);

    public ReadOnlySpan<byte> Method => _method;

    public ReadOnlySpan<byte> Host => _host;

    public int DefaultPort { get; init; }

    public ReadOnlySpan<byte> Path => _path;

    public ReadOnlySpan<byte> Query => _query;

    public int FieldCount => _fields.Length;

    public ReadOnlySpan<byte> FieldName(int index) => _fields[index].Name;

    public ReadOnlySpan<byte> FieldValue(int index) => _fields[index].Value;
}
