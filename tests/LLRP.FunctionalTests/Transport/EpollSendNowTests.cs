using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Text;
using LLRP.FunctionalTests.Infrastructure;
using LLRP.Transport.Epoll;
using Microsoft.AspNetCore.Connections;

namespace LLRP.FunctionalTests.Transport;

/// <summary>
/// <see cref="EpollConnection.TrySendNow"/>, the epoll transport's send without the output pipe (a pooled exchange's
/// request head): bytes leave at once only on the connection's loop with nothing of the output waiting, and the bytes of
/// a connection reach its peer in the order they were written, whichever way each left.
/// </summary>
public sealed class EpollSendNowTests
{
    [Fact]
    public async Task TrySendNow_OnItsLoopWithNothingWaiting_BytesLeaveAtOnce()
    {
        await using var pair = await ConnectedPair.OpenAsync();
        var bytes = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"u8.ToArray();

        var sent = await pair.OnLoopAsync(connection => connection.TrySendNow(bytes));

        Assert.Equal(bytes.Length, sent);
        Assert.Equal(bytes, await pair.ReceiveAsync(bytes.Length));
    }

    [Fact]
    public async Task TrySendNow_OffItsLoop_TakesNothing()
    {
        await using var pair = await ConnectedPair.OpenAsync();

        Assert.Equal(0, pair.Connection.TrySendNow("x"u8));
    }

    [Fact]
    public async Task TrySendNow_OutputUnflushed_TakesNothingAndOrderIsKept()
    {
        await using var pair = await ConnectedPair.OpenAsync();

        var sent = await pair.OnLoopAsync(connection =>
        {
            var output = connection.Transport.Output;
            output.Write("first "u8);
            var taken = connection.TrySendNow("second"u8);
            output.Write("second"u8[taken..]);
            _ = output.FlushAsync();
            return taken;
        });

        Assert.Equal(0, sent);
        Assert.Equal("first second", Encoding.ASCII.GetString(await pair.ReceiveAsync("first second".Length)));
    }

    [Fact]
    public async Task TrySendNow_AfterPipeSends_FollowsThem()
    {
        await using var pair = await ConnectedPair.OpenAsync();

        await pair.OnLoopAsync(connection =>
        {
            connection.Transport.Output.Write("piped "u8);
            _ = connection.Transport.Output.FlushAsync();
            return 0;
        });
        var sent = await pair.OnLoopAsync(connection => connection.TrySendNow("direct"u8));

        Assert.Equal("direct".Length, sent);
        Assert.Equal("piped direct", Encoding.ASCII.GetString(await pair.ReceiveAsync("piped direct".Length)));
    }

    /// <summary>An epoll connection to a loopback listener, and the listener's accepted socket as its peer.</summary>
    private sealed class ConnectedPair : IAsyncDisposable
    {
        private readonly EpollTransport _transport;
        private readonly Socket _listener;
        private readonly Socket _peer;

        private ConnectedPair(EpollTransport transport, Socket listener, Socket peer, EpollConnection connection)
            => (_transport, _listener, _peer, Connection) = (transport, listener, peer, connection);

        public EpollConnection Connection { get; }

        public static async Task<ConnectedPair> OpenAsync()
        {
            var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            listener.Listen();
            var transport = new EpollTransport(1);
            using var timeout = new CancellationTokenSource(Deadline.Io);
            var connection = await transport.ConnectAsync(listener.LocalEndPoint!, timeout.Token);
            var peer = await listener.AcceptAsync(timeout.Token);
            return new ConnectedPair(transport, listener, peer, connection);
        }

        /// <summary>
        /// Runs <paramref name="work"/> on the connection's loop in an iteration after the one it was asked in, so that the
        /// flushes the loop had scheduled then (the connect's own) are done.
        /// </summary>
        public Task<int> OnLoopAsync(Func<EpollConnection, int> work)
        {
            var done = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
            Connection.Loop.Post(_ => Connection.Loop.Post(_ => done.SetResult(work(Connection)), null), null);
            return done.Task.WaitAsync(Deadline.Io);
        }

        public async Task<byte[]> ReceiveAsync(int length)
        {
            var received = new byte[length];
            var count = 0;
            using var timeout = new CancellationTokenSource(Deadline.Io);
            while (count < length)
            {
                var read = await _peer.ReceiveAsync(received.AsMemory(count), SocketFlags.None, timeout.Token);
                Assert.NotEqual(0, read);
                count += read;
            }

            return received;
        }

        public async ValueTask DisposeAsync()
        {
            Connection.Abort(new ConnectionAbortedException("Test over."));
            await Connection.DisposeAsync();
            _peer.Dispose();
            _listener.Dispose();
            _transport.Dispose();
        }
    }
}
