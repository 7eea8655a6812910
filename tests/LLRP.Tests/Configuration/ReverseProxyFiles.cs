using System.Text;
using System.Text.Json.Nodes;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using Microsoft.Extensions.Configuration;

namespace LLRP.Tests.Configuration;

/// <summary>appsettings.json files with a <c>ReverseProxy</c> section, read as the proxy reads its configuration.</summary>
internal static class ReverseProxyFiles
{
    /// <summary>The smallest valid file: route <c>api</c> to cluster <c>backend</c> with one destination <c>one</c>.</summary>
    public const string Minimal = """
        {
          "ReverseProxy": {
            "Routes": { "api": { "ClusterId": "backend", "Match": { "Path": "/api/{**rest}" } } },
            "Clusters": { "backend": { "Destinations": { "one": { "Address": "http://one.test/" } } } }
          }
        }
        """;

    public static IConfiguration Configuration(string json, params (string Key, string Value)[] values)
        => new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes(json)))
            .AddInMemoryCollection(values.Select(v => new KeyValuePair<string, string?>(v.Key, v.Value)))
            .Build();

    public static ProxyOptions Read(string json, params (string Key, string Value)[] values)
        => ProxyOptionsReader.Read(Configuration(json, values));

    public static RoutingOptions Routing(string json, params (string Key, string Value)[] values)
        => Read(json, values).Routing;

    /// <summary>
    /// <see cref="Minimal"/> with the value at <paramref name="path"/> (a configuration key; array items by index) set to
    /// the JSON <paramref name="value"/>, or removed when it is null.
    /// </summary>
    public static string MinimalWith(string path, string? value) => With(Minimal, path, value);

    public static string With(string json, string path, string? value)
    {
        var root = JsonNode.Parse(json)!;
        var keys = path.Split(':');
        var parent = root;
        foreach (var key in keys[..^1])
        {
            var next = parent is JsonArray array ? array[int.Parse(key, System.Globalization.CultureInfo.InvariantCulture)] : parent[key];
            if (next is null)
            {
                next = new JsonObject();
                parent[key] = next;
            }

            parent = next;
        }

        var last = keys[^1];
        if (value is null)
        {
            parent.AsObject().Remove(last);
        }
        else if (parent is JsonArray items)
        {
            var index = int.Parse(last, System.Globalization.CultureInfo.InvariantCulture);
            while (items.Count <= index)
            {
                items.Add(null);
            }

            items[index] = JsonNode.Parse(value);
        }
        else
        {
            parent[last] = JsonNode.Parse(value);
        }

        return root.ToJsonString();
    }

    /// <summary>The refusal of <paramref name="json"/>, checked to name <paramref name="key"/> as its key and in its one-line message.</summary>
    public static ProxyConfigurationException Refused(string json, string key, params (string Key, string Value)[] values)
    {
        var e = Assert.Throws<ProxyConfigurationException>(() => Read(json, values));
        Assert.Equal(key, e.Key);
        Assert.Contains($"'{key}'", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
        Assert.DoesNotContain('\r', e.Message);
        return e;
    }
}
