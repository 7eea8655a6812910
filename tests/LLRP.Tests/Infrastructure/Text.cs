using System.Text;

namespace LLRP.Tests.Infrastructure;

/// <summary>Messages are written as C# strings; every char stands for one byte (Latin-1).</summary>
internal static class Text
{
    public static byte[] Bytes(string value) => Encoding.Latin1.GetBytes(value);

    public static string Of(ReadOnlySpan<byte> value) => Encoding.Latin1.GetString(value);
}
