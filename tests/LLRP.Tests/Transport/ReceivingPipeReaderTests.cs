using System.IO.Pipelines;
using System.Text;
using LLRP.Transport.Epoll;
using Microsoft.AspNetCore.Connections;

namespace LLRP.Tests.Transport;

/// <summary>
/// The epoll transport's input as its reader sees it: a receive that failed (a reset) comes after the bytes received
/// before it, where a pipe completed with the error would throw it ahead of them.
/// </summary>
public class ReceivingPipeReaderTests
{
    [Fact]
    public async Task Reset_ComesAfterTheBytesBeforeIt()
    {
        var (pipe, reader) = await ResetAfterAsync("HTTP/1.1 101 Switching Protocols\r\n\r\nbye");

        var result = await reader.ReadAsync();

        Assert.False(result.IsCompleted);
        Assert.Equal("HTTP/1.1 101 Switching Protocols\r\n\r\nbye", Encoding.Latin1.GetString(result.Buffer));
        reader.AdvanceTo(result.Buffer.End);
        await Assert.ThrowsAsync<ConnectionResetException>(async () => await reader.ReadAsync());
        pipe.Reader.Complete();
    }

    [Fact]
    public async Task Reset_ComesOnceTheBytesAreExamined_EvenIfNotConsumed()
    {
        var (pipe, reader) = await ResetAfterAsync("HTTP/1.1 101 Swi");

        var result = await reader.ReadAsync();
        reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);

        await Assert.ThrowsAsync<ConnectionResetException>(async () => await reader.ReadAsync());
        pipe.Reader.Complete();
    }

    [Fact]
    public async Task Reset_PartlyConsumed_TheRestComesFirst()
    {
        var (pipe, reader) = await ResetAfterAsync("abcdef");

        var first = await reader.ReadAsync();
        reader.AdvanceTo(first.Buffer.GetPosition(2));
        var rest = await reader.ReadAsync();

        Assert.False(rest.IsCompleted);
        Assert.Equal("cdef", Encoding.Latin1.GetString(rest.Buffer));
        reader.AdvanceTo(rest.Buffer.End);
        Assert.Throws<ConnectionResetException>(() => reader.TryRead(out _));
        pipe.Reader.Complete();
    }

    [Fact]
    public async Task NoFailure_TheEndIsThePipes()
    {
        var pipe = new Pipe();
        var reader = new ReceivingPipeReader(pipe.Reader);
        await pipe.Writer.WriteAsync("end"u8.ToArray());
        pipe.Writer.Complete();

        var result = await reader.ReadAsync();

        Assert.True(result.IsCompleted);
        Assert.Equal("end", Encoding.Latin1.GetString(result.Buffer));
        reader.Complete();
    }

    /// <summary>A pipe that received <paramref name="text"/> and then a reset, as the transport completes it.</summary>
    private static async Task<(Pipe Pipe, ReceivingPipeReader Reader)> ResetAfterAsync(string text)
    {
        var pipe = new Pipe();
        var reader = new ReceivingPipeReader(pipe.Reader);
        await pipe.Writer.WriteAsync(Encoding.Latin1.GetBytes(text));
        reader.FailAfterData(new ConnectionResetException("The peer reset the connection."));
        pipe.Writer.Complete();
        return (pipe, reader);
    }
}
