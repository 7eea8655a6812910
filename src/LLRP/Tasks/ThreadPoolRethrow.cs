using System.Runtime.ExceptionServices;

namespace LLRP.Tasks;

/// <summary>
/// What the runtime's builders do when an awaiter's <c>OnCompleted</c> throws: the exception is thrown again on a
/// thread-pool thread, where nothing catches it, and the process ends. The method cannot fail with it instead, since the
/// awaiter may have registered the continuation before throwing: the method's box could later resume after it was given
/// back, in another method's state.
/// </summary>
internal static class ThreadPoolRethrow
{
    public static void Queue(Exception exception)
        => ThreadPool.UnsafeQueueUserWorkItem(static failure => failure.Throw(), ExceptionDispatchInfo.Capture(exception), preferLocal: false);
}
