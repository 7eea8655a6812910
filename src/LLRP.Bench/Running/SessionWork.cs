namespace LLRP.Bench.Running;

/// <summary>What one start of a contender does in a round, and which origin it forwards to.</summary>
/// <param name="OriginPort">The origin the contender is pointed at (direct's target).</param>
/// <param name="Shapes">Measure every shape.</param>
/// <param name="LargeBodies">Move 1 GiB each way.</param>
/// <param name="IdleConnections">Hold idle connections, last, so their memory inflates no other figure.</param>
public sealed record SessionWork(int OriginPort, bool Shapes, bool LargeBodies, bool IdleConnections);
