using System.Text;
using LLRP.Configuration;
using LLRP.Configuration.Routes;
using LLRP.Http1;
using LLRP.Proxy;

namespace LLRP.Microbenchmarks;

/// <summary>Representative messages: what wrk sends, what a browser sends, what the origin answers.</summary>
internal static class Messages
{
    /// <summary>The proxy's default configuration.</summary>
    public static readonly ProxyOptions Defaults = new() { Destinations = [], Routing = RoutingOptions.Unread };

    /// <summary>The proxy's default request head limits.</summary>
    public static readonly RequestLimits Limits = ClientSessionServices.RequestLimitsOf(Defaults);

    public static readonly byte[] WrkRequest = Encoding.ASCII.GetBytes("GET /?s=10 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");

    public static readonly byte[] BrowserRequest = Encoding.ASCII.GetBytes(
        "GET /products/item?id=42&ref=home HTTP/1.1\r\n" +
        "Host: shop.example.com\r\n" +
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36\r\n" +
        "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8\r\n" +
        "Accept-Language: en-US,en;q=0.9\r\n" +
        "Accept-Encoding: gzip, deflate, br\r\n" +
        "Cookie: session=0123456789abcdef0123456789abcdef; theme=dark; consent=yes\r\n" +
        "Connection: keep-alive\r\n" +
        "Upgrade-Insecure-Requests: 1\r\n" +
        "X-Forwarded-For: 203.0.113.7\r\n" +
        "Cache-Control: max-age=0\r\n\r\n");

    public static readonly byte[] Response = Encoding.ASCII.GetBytes(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: Sun, 22 Nov 2026 06:00:00 GMT\r\nServer: Kestrel\r\nContent-Length: 10\r\n\r\nabcdefghij");
}
