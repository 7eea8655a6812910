using System.Collections;
using LLRP.Upstream;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Http2.Server;

/// <summary>
/// The feature collection of a request stream: the stream's own features answered by type (the front end and the
/// forwarder look up four or five per request, each a dictionary search in a <see cref="FeatureCollection"/>), and what
/// the application sets kept beside them, taking precedence over the stream's own (set to null, it hides one). A stream
/// whose application set a feature gets a new collection for its next request.
/// </summary>
internal sealed class StreamFeatures(Http2Stream stream, IHttpConnectionFeature connection) : IFeatureCollection
{
    private static readonly Type[] OwnFeatures =
    [
        typeof(IHttpRequestFeature), typeof(IHttpResponseFeature), typeof(IHttpResponseBodyFeature), typeof(IRequestBodyPipeFeature),
        typeof(IHttpRequestLifetimeFeature), typeof(IHttpResetFeature), typeof(IHttpResponseTrailersFeature), typeof(IHttpRequestTrailersFeature),
        typeof(IHttpRequestBodyDetectionFeature), typeof(IResponseFieldLinesFeature), typeof(IRequestHeadBytesFeature), typeof(IHttpConnectionFeature),
        typeof(IResponseHeadWaitFeature),
    ];

    private Dictionary<Type, object?>? _set;
    private int _revision;

    public bool IsReadOnly => false;

    public int Revision => _revision;

    public object? this[Type key]
    {
        get => _set is not null && _set.TryGetValue(key, out var value) ? value : Own(key);
        set
        {
            _revision++;
            (_set ??= [])[key] = value;
        }
    }

    private object? Own(Type key)
    {
        if (key == typeof(IHttpConnectionFeature))
        {
            return connection;
        }

        return key == typeof(IRequestHeadBytesFeature) || key == typeof(IResponseFieldLinesFeature) || key == typeof(IHttpResponseTrailersFeature)
            || key == typeof(IHttpRequestTrailersFeature) || key == typeof(IHttpRequestFeature) || key == typeof(IHttpResponseFeature)
            || key == typeof(IHttpResponseBodyFeature) || key == typeof(IRequestBodyPipeFeature) || key == typeof(IHttpRequestLifetimeFeature)
            || key == typeof(IHttpResetFeature) || key == typeof(IHttpRequestBodyDetectionFeature) || key == typeof(IResponseHeadWaitFeature)
            ? stream : null;
    }

    public TFeature? Get<TFeature>() => (TFeature?)this[typeof(TFeature)];

    public void Set<TFeature>(TFeature? instance) => this[typeof(TFeature)] = instance;

    public IEnumerator<KeyValuePair<Type, object>> GetEnumerator()
    {
        if (_set is not null)
        {
            foreach (var (type, value) in _set)
            {
                if (value is not null)
                {
                    yield return new(type, value);
                }
            }
        }

        foreach (var type in OwnFeatures)
        {
            if (_set is null || !_set.ContainsKey(type))
            {
                yield return new(type, Own(type)!);
            }
        }
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
