using System.Collections;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Primitives;

namespace LLRP.Upstream.LightContext;

/// <summary>
/// The header fields of the light <c>HttpContext</c>, case-insensitive, in arrival order per name. Unlike
/// <see cref="HeaderDictionary"/> it keeps a field whose value is empty (<c>X-Empty:</c>), as Kestrel's own collections do.
/// </summary>
internal sealed class FieldDictionary : IHeaderDictionary
{
    private readonly Dictionary<string, StringValues> _fields = new(StringComparer.OrdinalIgnoreCase);

    public StringValues this[string key]
    {
        get => _fields.TryGetValue(key, out var value) ? value : StringValues.Empty;
        set
        {
            if (value.Count == 0)
            {
                _fields.Remove(key);
            }
            else
            {
                _fields[key] = value;
            }
        }
    }

    public long? ContentLength
    {
        get => _fields.TryGetValue("Content-Length", out var value) && value.Count == 1 && long.TryParse(value.ToString(), NumberStyles.None, CultureInfo.InvariantCulture, out var length) && length >= 0 ? length : null;
        set => this["Content-Length"] = value?.ToString(CultureInfo.InvariantCulture) ?? StringValues.Empty;
    }

    public ICollection<string> Keys => _fields.Keys;

    public ICollection<StringValues> Values => _fields.Values;

    public int Count => _fields.Count;

    public bool IsReadOnly => false;

    /// <summary>Adds a field line: a repeated name gets one more value.</summary>
    public void Append(string key, string value)
        => _fields[key] = _fields.TryGetValue(key, out var existing) ? StringValues.Concat(existing, value) : new StringValues(value);

    public void Add(string key, StringValues value) => _fields.Add(key, value);

    public void Add(KeyValuePair<string, StringValues> item) => _fields.Add(item.Key, item.Value);

    public void Clear() => _fields.Clear();

    public bool Contains(KeyValuePair<string, StringValues> item)
        => _fields.TryGetValue(item.Key, out var value) && value.Equals(item.Value);

    public bool ContainsKey(string key) => _fields.ContainsKey(key);

    public void CopyTo(KeyValuePair<string, StringValues>[] array, int arrayIndex)
        => ((ICollection<KeyValuePair<string, StringValues>>)_fields).CopyTo(array, arrayIndex);

    public bool Remove(string key) => _fields.Remove(key);

    public bool Remove(KeyValuePair<string, StringValues> item) => Contains(item) && _fields.Remove(item.Key);

    public bool TryGetValue(string key, [MaybeNullWhen(false)] out StringValues value) => _fields.TryGetValue(key, out value);

    public Dictionary<string, StringValues>.Enumerator GetEnumerator() => _fields.GetEnumerator();

    IEnumerator<KeyValuePair<string, StringValues>> IEnumerable<KeyValuePair<string, StringValues>>.GetEnumerator() => _fields.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => _fields.GetEnumerator();
}
