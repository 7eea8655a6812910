using System.Buffers;
using System.Collections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace LLRP.Transport.Epoll;

/// <summary>
/// The features Kestrel and its connection middleware (TLS) look for, served by the connection itself, which is also their
/// collection: the six it serves are answered by type, and what others set (Kestrel sets four of its own per connection,
/// the TLS middleware a few) is kept in a small array searched in order, grown by four. A feature set for one of the six
/// types takes precedence over the connection's own.
/// </summary>
internal sealed partial class EpollConnection
    : IFeatureCollection, IConnectionIdFeature, IConnectionTransportFeature, IConnectionItemsFeature, IMemoryPoolFeature, IConnectionLifetimeFeature, IConnectionEndPointFeature
{
    private static readonly Type[] OwnFeatures =
    [
        typeof(IConnectionIdFeature), typeof(IConnectionTransportFeature), typeof(IConnectionItemsFeature),
        typeof(IMemoryPoolFeature), typeof(IConnectionLifetimeFeature), typeof(IConnectionEndPointFeature),
    ];

    private KeyValuePair<Type, object>[]? _setFeatures;
    private int _setFeatureCount;
    private int _featureRevision;

    public MemoryPool<byte> MemoryPool { get; }

    bool IFeatureCollection.IsReadOnly => false;

    int IFeatureCollection.Revision => _featureRevision;

    object? IFeatureCollection.this[Type key]
    {
        get
        {
            var index = IndexOf(key);
            return index >= 0 ? _setFeatures![index].Value : IsOwnFeature(key) ? this : null;
        }

        set
        {
            _featureRevision++;
            var index = IndexOf(key);
            if (value is null)
            {
                if (index >= 0)
                {
                    _setFeatures![index] = _setFeatures[--_setFeatureCount];
                    _setFeatures[_setFeatureCount] = default;
                }

                return;
            }

            if (index >= 0)
            {
                _setFeatures![index] = new(key, value);
                return;
            }

            if (_setFeatures is null || _setFeatureCount == _setFeatures.Length)
            {
                Array.Resize(ref _setFeatures, _setFeatureCount + 4);
            }

            _setFeatures[_setFeatureCount++] = new(key, value);
        }
    }

    TFeature? IFeatureCollection.Get<TFeature>() where TFeature : default => (TFeature?)((IFeatureCollection)this)[typeof(TFeature)];

    void IFeatureCollection.Set<TFeature>(TFeature? instance) where TFeature : default => ((IFeatureCollection)this)[typeof(TFeature)] = instance;

    IEnumerator<KeyValuePair<Type, object>> IEnumerable<KeyValuePair<Type, object>>.GetEnumerator()
    {
        for (var i = 0; i < _setFeatureCount; i++)
        {
            yield return _setFeatures![i];
        }

        foreach (var type in OwnFeatures)
        {
            if (IndexOf(type) < 0)
            {
                yield return new(type, this);
            }
        }
    }

    IEnumerator IEnumerable.GetEnumerator() => ((IEnumerable<KeyValuePair<Type, object>>)this).GetEnumerator();

    private static bool IsOwnFeature(Type type)
        => type == typeof(IConnectionIdFeature) || type == typeof(IConnectionTransportFeature) || type == typeof(IConnectionItemsFeature)
            || type == typeof(IMemoryPoolFeature) || type == typeof(IConnectionLifetimeFeature) || type == typeof(IConnectionEndPointFeature);

    private int IndexOf(Type type)
    {
        for (var i = 0; i < _setFeatureCount; i++)
        {
            if (_setFeatures![i].Key == type)
            {
                return i;
            }
        }

        return -1;
    }
}
