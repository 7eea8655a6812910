using System.Net;

namespace LLRP.FunctionalTests.Infrastructure;

/// <summary>The proxy's admin listener (setting <c>admin.urls</c>), on a loopback port of its own, read with <see cref="HttpClient"/>.</summary>
public sealed class AdminEndpoint : IDisposable
{
    private readonly HttpClient _client;

    public AdminEndpoint()
    {
        Port = LoopbackPort.Closed();
        _client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{Port}"), Timeout = Deadline.Io };
    }

    public int Port { get; }

    /// <summary>The setting that makes the proxy bind it.</summary>
    public string Setting => $"admin.urls=http://127.0.0.1:{Port}";

    /// <summary>GETs <paramref name="path"/>: the status and the body as text.</summary>
    public async Task<(HttpStatusCode Status, string Body)> GetAsync(string path)
    {
        using var response = await _client.GetAsync(path);
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }

    public void Dispose() => _client.Dispose();
}
