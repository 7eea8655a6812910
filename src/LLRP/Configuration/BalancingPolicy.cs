namespace LLRP.Configuration;

/// <summary>Key <c>balancing</c>: which destination a client connection or a request goes to.</summary>
public enum BalancingPolicy
{
    /// <summary>Each client connection takes the next destination in turn and keeps it while it is available (the prototype's).</summary>
    RoundRobinPerConnection,

    /// <summary>Each request (each batch of pipelined requests, in raw mode) takes the next available destination in turn.</summary>
    RoundRobin,

    /// <summary>Each request goes to the destination with the fewest requests in flight per unit of weight; ties rotate.</summary>
    LeastRequests,

    /// <summary>Each request compares two available destinations drawn at random and goes to the one with fewer requests in flight per unit of weight.</summary>
    PowerOfTwoChoices,

    /// <summary>Each request goes to the next destination of a smooth weighted round robin (as nginx's): weight 3 gets 3 turns in 4 against weight 1, interleaved.</summary>
    WeightedRoundRobin,

    /// <summary>Each request goes to an available destination drawn at random (YARP's <c>Random</c>).</summary>
    Random,

    /// <summary>Each request goes to the first available destination by name (YARP's <c>FirstAlphabetical</c>): a fail-over order.</summary>
    FirstAlphabetical,
}
