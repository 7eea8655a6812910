using LLRP.Configuration.Routes;

namespace LLRP.Http1.Transforms;

/// <summary>
/// Applies a route's query transforms to a query as received (without its '?'): a parameter a Set names takes its new
/// value where it first appeared (later ones are dropped) or at the end; Append adds one at the end; Remove drops every
/// one. Names compare without regard to case after percent-decoding ('+' is a space), as ASP.NET Core reads a query.
/// </summary>
internal static class QueryTransformer
{
    /// <summary>Writes <c>?</c> and the transformed query into <paramref name="destination"/>, or nothing when it ends empty; returns the length.</summary>
    public static int Apply(QueryStep[] steps, ReadOnlySpan<byte> query, Span<byte> destination)
    {
        if (steps.Length == 0)
        {
            return query.IsEmpty ? 0 : Copy(query, destination);
        }

        Span<bool> written = stackalloc bool[steps.Length];
        var length = 0;
        var rest = query;
        while (!rest.IsEmpty)
        {
            var end = rest.IndexOf((byte)'&');
            var parameter = end < 0 ? rest : rest[..end];
            rest = end < 0 ? default : rest[(end + 1)..];
            var equals = parameter.IndexOf((byte)'=');
            var name = equals < 0 ? parameter : parameter[..equals];
            var step = Find(steps, name);
            if (step < 0)
            {
                length = Append(destination, length, parameter);
            }
            else if (steps[step].Action == TransformAction.Set && !written[step])
            {
                written[step] = true;
                length = Append(destination, length, steps[step].Encoded);
            }
        }

        for (var i = 0; i < steps.Length; i++)
        {
            if (steps[i].Action == TransformAction.Append || (steps[i].Action == TransformAction.Set && !written[i]))
            {
                length = Append(destination, length, steps[i].Encoded);
            }
        }

        return length;
    }

    /// <summary>The first Set or Remove step that names <paramref name="encodedName"/>, or -1.</summary>
    private static int Find(QueryStep[] steps, ReadOnlySpan<byte> encodedName)
    {
        for (var i = 0; i < steps.Length; i++)
        {
            if (steps[i].Action != TransformAction.Append && PercentEncoding.QueryComponentEquals(encodedName, steps[i].Name))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>Writes '?' or '&amp;' (by whether anything was written), then <paramref name="parameter"/>.</summary>
    private static int Append(Span<byte> destination, int length, ReadOnlySpan<byte> parameter)
    {
        destination[length] = length == 0 ? (byte)'?' : (byte)'&';
        parameter.CopyTo(destination[(length + 1)..]);
        return length + 1 + parameter.Length;
    }

    private static int Copy(ReadOnlySpan<byte> query, Span<byte> destination)
    {
        destination[0] = (byte)'?';
        query.CopyTo(destination[1..]);
        return query.Length + 1;
    }
}
