namespace LLRP.Tasks;

/// <summary>
/// The box of a method that threw <see cref="OperationCanceledException"/> before its first suspension: its
/// <see cref="ValueTask{TResult}"/> is then Canceled, as with the runtime's builders, and rethrows that same exception.
/// Made for that rare end only and never kept.
/// </summary>
internal sealed class UnpooledBox<TResult> : PooledBox<TResult>
{
    protected override void Return()
    {
    }
}
