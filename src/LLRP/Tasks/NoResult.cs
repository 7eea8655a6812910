namespace LLRP.Tasks;

/// <summary>The result of a method that returns none, for <see cref="PooledValueTaskBuilder"/>.</summary>
internal readonly struct NoResult;
