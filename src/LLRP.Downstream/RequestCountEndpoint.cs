using System.Buffers;
using System.Globalization;
using System.Text;
using Microsoft.AspNetCore.Http;

namespace LLRP.Downstream;

/// <summary>
/// <c>/requests</c>: answers 200 with the number of requests the origin has received since it started, this one
/// included, in decimal and a <c>\n</c> (as nginx's <c>stub_status</c> counts): the difference of two readings, less one,
/// is what arrived between them. <c>/grpc-unary-ok</c>: the same for the gRPC unary calls answered with status OK
/// (<see cref="Grpc.UnaryCallCounter"/>), the reading not included. Never delayed by <c>delayMs</c>.
/// </summary>
internal static class RequestCountEndpoint
{
    public const string Path = "/requests";

    public const string UnaryOkPath = "/grpc-unary-ok";

    public static Task Write(HttpResponse response, long received)
    {
        var body = Encoding.ASCII.GetBytes(received.ToString(CultureInfo.InvariantCulture) + "\n");
        response.ContentType = PatternBodyWriter.TextPlain;
        response.ContentLength = body.Length;
        response.BodyWriter.Write(body);
        return Task.CompletedTask;
    }
}
