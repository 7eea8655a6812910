using System.Runtime.CompilerServices;
using LLRP.Tasks;

// Awaits, in a method of LLRP's builder, an awaiter whose OnCompleted throws after registering the continuation, as
// PooledValueTaskBuilderFailFastTests expects: the process must end on the rethrown exception, never report the
// method's failure, and never reach the end of Main.
var pending = AwaitRefusingAwaiterAsync();
Console.WriteLine(pending.IsCompleted ? "method completed" : "method suspended");
Thread.Sleep(TimeSpan.FromSeconds(20));
Console.WriteLine("process still running");
return 0;

[AsyncMethodBuilder(typeof(PooledValueTaskBuilder<>))]
static async ValueTask<int> AwaitRefusingAwaiterAsync()
{
    try
    {
        await new RefusingAwaiter();
        return 1;
    }
    catch (InvalidOperationException)
    {
        Console.WriteLine("method caught the awaiter's exception");
        return 2;
    }
}
