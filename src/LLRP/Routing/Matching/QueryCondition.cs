using LLRP.Http1;
using System.Buffers;
using System.Text;
using LLRP.Configuration.Routes;

namespace LLRP.Routing;

/// <summary>
/// One <c>Match:QueryParameters</c> entry, with YARP's semantics (its <c>QueryParameterMatcherPolicy</c> over ASP.NET
/// Core's query parsing): pairs split at '&amp;' and '=', names and values percent-decoded with '+' as a space, names
/// compared ignoring ASCII case. Every occurrence of the parameter is looked at; it counts as empty when absent or
/// when its one occurrence has an empty value.
/// </summary>
internal sealed class QueryCondition
{
    /// <summary>Queries up to this long are decoded on the stack; longer ones into a pooled buffer.</summary>
    private const int StackDecodeLength = 256;

    private readonly byte[] _name;
    private readonly ConditionValues _values;
    private readonly bool _matchesEmpty;
    private readonly bool _negates;

    /// <exception cref="ArgumentException">The values do not fit the mode.</exception>
    public QueryCondition(QueryMatchOptions options)
    {
        var (comparison, matchesEmpty, negates) = options.Mode switch
        {
            QueryMatchMode.Exact => (ValueComparison.Exact, false, false),
            QueryMatchMode.Prefix => (ValueComparison.Prefix, false, false),
            QueryMatchMode.Contains => (ValueComparison.Contains, false, false),
            QueryMatchMode.NotContains => (ValueComparison.Contains, true, true),
            QueryMatchMode.Exists => (ValueComparison.None, false, false),
            _ => throw new ArgumentException($"query parameter '{options.Name}': unknown mode {options.Mode}", nameof(options)),
        };
        if ((comparison == ValueComparison.None) != (options.Values.Count == 0))
        {
            throw new ArgumentException(
                $"query parameter '{options.Name}': mode {options.Mode} takes {(comparison == ValueComparison.None ? "no values" : "one or more values")}",
                nameof(options));
        }

        _name = Encoding.UTF8.GetBytes(options.Name);
        _values = new ConditionValues(options.Values, comparison, options.IsCaseSensitive);
        _matchesEmpty = matchesEmpty;
        _negates = negates;
    }

    public bool Matches(ReadOnlySpan<byte> query)
    {
        byte[]? rented = null;
        var scratch = query.Length <= StackDecodeLength
            ? stackalloc byte[StackDecodeLength]
            : (rented = ArrayPool<byte>.Shared.Rent(query.Length));
        var result = Matches(query, scratch);
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }

        return result;
    }

    private bool Matches(ReadOnlySpan<byte> query, Span<byte> scratch)
    {
        var occurrences = 0;
        var firstEmpty = false;
        var found = false;
        foreach (var range in query.Split((byte)'&'))
        {
            var pair = query[range];
            if (pair.IsEmpty)
            {
                continue;
            }

            var equals = pair.IndexOf((byte)'=');
            var rawName = equals < 0 ? pair : pair[..equals];
            if (!AsciiCase.EqualsIgnoreCase(scratch[..PercentEncoding.DecodeQueryComponent(rawName, scratch)], _name))
            {
                continue;
            }

            var value = equals < 0 ? default : scratch[..PercentEncoding.DecodeQueryComponent(pair[(equals + 1)..], scratch)];
            firstEmpty |= ++occurrences == 1 && value.IsEmpty;
            found = found || _values.Comparison == ValueComparison.None || _values.AnyMatches(value);
        }

        var isEmpty = occurrences == 0 || (occurrences == 1 && firstEmpty);
        return isEmpty ? _matchesEmpty : found != _negates;
    }
}
