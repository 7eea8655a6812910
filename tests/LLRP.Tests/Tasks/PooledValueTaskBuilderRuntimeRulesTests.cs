using System.Diagnostics;
using System.Runtime.CompilerServices;
using LLRP.Tasks;

namespace LLRP.Tests.Tasks;

/// <summary>Where the builder must end as the runtime's builders do.</summary>
public sealed class PooledValueTaskBuilderRuntimeRulesTests
{
    [Fact]
    public async Task SetException_CanceledBeforeSuspending_CanceledValueTaskThatRethrowsIt()
    {
        var canceled = new OperationCanceledException("stopped");

        var typed = CancelAsync(canceled);
        var untyped = CancelUntypedAsync(canceled);

        Assert.True(DefaultBuilderCancelAsync(canceled).IsCanceled);
        Assert.True(typed.IsCanceled);
        Assert.True(untyped.IsCanceled);
        Assert.Same(canceled, await Assert.ThrowsAsync<OperationCanceledException>(async () => await typed));
        Assert.Same(canceled, await Assert.ThrowsAsync<OperationCanceledException>(async () => await untyped));
    }

    [Fact]
    public void SetException_OtherFailureBeforeSuspending_Faulted()
    {
        var failing = FailAsync();

        Assert.True(failing.IsFaulted);
        Assert.Throws<InvalidOperationException>(() => failing.GetAwaiter().GetResult());
    }

    /// <summary>
    /// The child process awaits an awaiter that keeps the continuation and then throws: the process must die of that
    /// exception (as with the runtime's builders), and the method must neither catch it nor complete.
    /// </summary>
    [Fact]
    public async Task AwaitUnsafeOnCompleted_AwaiterThrows_ProcessEndsOnTheException()
    {
        var probe = Path.Combine(AppContext.BaseDirectory, "LLRP.CrashProbe.dll");
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add("exec");
        start.ArgumentList.Add(probe);
        start.Environment["DOTNET_DbgEnableMiniDump"] = "0";

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await process.WaitForExitAsync(timeout.Token);

        Assert.NotEqual(0, process.ExitCode);
        Assert.Contains("Unhandled exception. System.InvalidOperationException: the awaiter refused the continuation", await error, StringComparison.Ordinal);
        Assert.Equal("method suspended", (await output).Trim());
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> CancelAsync(OperationCanceledException canceled)
    {
        if (canceled is not null)
        {
            throw canceled;
        }

        await Task.Yield();
        return 0;
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder))]
    private static async ValueTask CancelUntypedAsync(OperationCanceledException canceled)
    {
        if (canceled is not null)
        {
            throw canceled;
        }

        await Task.Yield();
    }

    private static async ValueTask<int> DefaultBuilderCancelAsync(OperationCanceledException canceled)
    {
        if (canceled is not null)
        {
            throw canceled;
        }

        await Task.Yield();
        return 0;
    }

    [AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
    private static async ValueTask<int> FailAsync()
    {
        if (DateTime.UtcNow.Year > 0)
        {
            throw new InvalidOperationException("failed");
        }

        await Task.Yield();
        return 0;
    }
}
