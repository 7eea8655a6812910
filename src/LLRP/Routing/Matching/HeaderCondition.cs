using LLRP.Http1;
using System.Text;
using LLRP.Configuration.Routes;

namespace LLRP.Routing;

/// <summary>
/// One <c>Match:Headers</c> entry, with YARP's semantics (its <c>HeaderMatcherPolicy</c>): every line of the field is
/// looked at; the field counts as empty when absent or when its one line is empty. <see cref="HeaderMatchMode.ExactHeader"/>
/// and <see cref="HeaderMatchMode.HeaderPrefix"/> compare each list member (split at ',', at ';' for <c>Cookie</c>;
/// a separator inside a quoted string does not split; one pair of quotes is removed).
/// </summary>
internal sealed class HeaderCondition
{
    private readonly byte[] _name;
    private readonly ConditionValues _values;
    private readonly bool _splitsList;
    private readonly byte _separator;
    private readonly bool _matchesEmpty;
    private readonly bool _negates;

    /// <exception cref="ArgumentException">The values do not fit the mode.</exception>
    public HeaderCondition(HeaderMatchOptions options)
    {
        var (comparison, matchesEmpty, negates) = options.Mode switch
        {
            HeaderMatchMode.ExactHeader => (ValueComparison.Exact, false, false),
            HeaderMatchMode.HeaderPrefix => (ValueComparison.Prefix, false, false),
            HeaderMatchMode.Contains => (ValueComparison.Contains, false, false),
            HeaderMatchMode.NotContains => (ValueComparison.Contains, true, true),
            HeaderMatchMode.Exists => (ValueComparison.None, false, false),
            HeaderMatchMode.NotExists => (ValueComparison.None, true, true),
            _ => throw new ArgumentException($"header '{options.Name}': unknown mode {options.Mode}", nameof(options)),
        };
        if ((comparison == ValueComparison.None) != (options.Values.Count == 0))
        {
            throw new ArgumentException(
                $"header '{options.Name}': mode {options.Mode} takes {(comparison == ValueComparison.None ? "no values" : "one or more values")}",
                nameof(options));
        }

        _name = Encoding.ASCII.GetBytes(options.Name);
        _values = new ConditionValues(options.Values, comparison, options.IsCaseSensitive);
        _splitsList = options.Mode is HeaderMatchMode.ExactHeader or HeaderMatchMode.HeaderPrefix;
        _separator = string.Equals(options.Name, "Cookie", StringComparison.OrdinalIgnoreCase) ? (byte)';' : (byte)',';
        _matchesEmpty = matchesEmpty;
        _negates = negates;
    }

    public bool Matches<TRequest>(scoped in TRequest request)
        where TRequest : IRoutableRequest, allows ref struct
    {
        var lines = 0;
        var firstLineEmpty = false;
        var found = false;
        for (var i = 0; i < request.FieldCount; i++)
        {
            if (!AsciiCase.EqualsIgnoreCase(request.FieldName(i), _name))
            {
                continue;
            }

            var value = request.FieldValue(i);
            firstLineEmpty |= ++lines == 1 && value.IsEmpty;
            found = found || _values.Comparison == ValueComparison.None || (_splitsList ? AnyMember(value) : _values.AnyMatches(value));
        }

        var isEmpty = lines == 0 || (lines == 1 && firstLineEmpty);
        return isEmpty ? _matchesEmpty : found != _negates;
    }

    private bool AnyMember(ReadOnlySpan<byte> line)
    {
        while (!line.IsEmpty)
        {
            var end = MemberEnd(line);
            var member = line[..end].Trim(" \t"u8);
            if (member.Length > 1 && member[0] == (byte)'"' && member[^1] == (byte)'"')
            {
                member = member[1..^1];
            }

            if (_values.AnyMatches(member))
            {
                return true;
            }

            line = end < line.Length ? line[(end + 1)..] : default;
        }

        return false;
    }

    /// <summary>The index of the separator ending the first member, skipping quoted strings; the length when none.</summary>
    private int MemberEnd(ReadOnlySpan<byte> line)
    {
        for (var i = 0; i < line.Length; i++)
        {
            if (line[i] == (byte)'"')
            {
                var close = line[(i + 1)..].IndexOf((byte)'"');
                if (close < 0)
                {
                    return line.Length;
                }

                i += close + 1;
            }
            else if (line[i] == _separator)
            {
                return i;
            }
        }

        return line.Length;
    }
}
