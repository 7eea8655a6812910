using LLRP.Bench.Load;
using LLRP.Bench.Origins;

namespace LLRP.Bench.Running;

/// <summary>What one start of a contender does in a round: which origin it forwards to, over which schemes, and what is measured.</summary>
/// <param name="OriginPort">The origin port the contender is pointed at (the TLS one when the origin leg is TLS).</param>
/// <param name="DirectPort">Direct's target: the origin port speaking the client leg's scheme.</param>
/// <param name="Legs">The schemes of the client and origin legs.</param>
/// <param name="Shapes">The shapes measured, wrk's and the WebSocket echo.</param>
/// <param name="LargeBodies">Move 1 GiB each way.</param>
/// <param name="IdleConnections">Hold idle connections, last, so their memory inflates no other figure.</param>
/// <param name="Origin">Which origin, for progress lines and notes.</param>
public sealed record SessionWork(
    int OriginPort, int DirectPort, Legs Legs, IReadOnlyList<LoadShape> Shapes, bool LargeBodies, bool IdleConnections, string Origin)
{
    /// <summary>e.g. <c>nginx origin, https-http</c>.</summary>
    public string Description => $"{Origin} origin, {Legs.Name}";

    /// <summary>
    /// The starts of each contender in a round: the http shapes in front of the shapes' origin, then each pair of schemes
    /// in front of the same origin's TLS port, then the bundled origin for the WebSocket echo and the 1 GiB bodies (one start
    /// when that is also the shapes' origin). Idle connections go with the plain start in front of the shapes' origin.
    /// </summary>
    public static List<SessionWork> Plan(OriginPlan origins, IReadOnlyList<LoadShape> shapes, bool largeBodies, bool idle)
    {
        var shapesOrigin = origins.ShapesOrigin == OriginKind.Nginx ? "nginx" : "bundled";
        var works = new List<SessionWork>();
        SessionWork Get(int originPort, int directPort, Legs legs, string origin)
        {
            var index = works.FindIndex(w => w.OriginPort == originPort && w.DirectPort == directPort && w.Legs == legs);
            if (index < 0)
            {
                works.Add(new SessionWork(originPort, directPort, legs, [], false, false, origin));
                index = works.Count - 1;
            }

            return works[index];
        }

        void Update(SessionWork work, Func<SessionWork, SessionWork> change) => works[works.IndexOf(work)] = change(work);

        foreach (var group in shapes.Where(s => !s.IsWebSocket).GroupBy(s => s.Legs).OrderBy(g => g.Key.AnyTls))
        {
            var legs = group.Key;
            var port = legs.OriginTls ? origins.ShapesTlsPort!.Value : origins.ShapesPort;
            var direct = legs.ClientTls ? origins.ShapesTlsPort!.Value : origins.ShapesPort;
            var work = Get(port, direct, legs, shapesOrigin);
            Update(work, w => w with { Shapes = [.. w.Shapes, .. group] });
        }

        if (idle)
        {
            var work = Get(origins.ShapesPort, origins.ShapesPort, Legs.Plain, shapesOrigin);
            Update(work, w => w with { IdleConnections = true });
        }

        if (origins.BundledPort is { } bundled)
        {
            var echo = shapes.Where(s => s.IsWebSocket).ToList();
            var work = Get(bundled, bundled, Legs.Plain, "bundled");
            Update(work, w => w with { Shapes = [.. w.Shapes, .. echo], LargeBodies = largeBodies });
        }

        return [.. works.Where(w => w.Shapes.Count > 0 || w.LargeBodies || w.IdleConnections)];
    }
}
