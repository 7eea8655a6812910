using LLRP.Bench.Contenders;
using LLRP.Bench.Load;
using LLRP.Bench.Origins;

namespace LLRP.Bench.Running;

/// <summary>What one start of a contender does in a round: which origins it forwards to, over which schemes, and what is measured.</summary>
/// <param name="OriginPorts">The origin ports the contender is pointed at (the TLS one when the origin leg is TLS); several for the balancing shapes.</param>
/// <param name="DirectPort">Direct's target: the origin port speaking the client leg's scheme; null when there are several origins.</param>
/// <param name="Legs">The schemes of the client and origin legs.</param>
/// <param name="Shapes">The shapes measured, wrk's and the WebSocket echo.</param>
/// <param name="LargeBodies">Move 1 GiB each way.</param>
/// <param name="IdleConnections">Hold idle connections, last, so their memory inflates no other figure.</param>
/// <param name="Origin">Which origin, for progress lines and notes.</param>
/// <param name="Tcp">The TCP shapes: run by the TCP relays and direct only.</param>
public sealed record SessionWork(
    IReadOnlyList<int> OriginPorts, int? DirectPort, Legs Legs, IReadOnlyList<LoadShape> Shapes, bool LargeBodies, bool IdleConnections, string Origin,
    bool Tcp = false)
{
    /// <summary>e.g. <c>nginx origin, https-http</c>.</summary>
    public string Description => $"{Origin} origin{(OriginPorts.Count > 1 ? "s" : "")}, {Legs.Name}";

    /// <summary>
    /// Whether <paramref name="contender"/> is started for this work: several origins need a contender that takes them,
    /// and a contender that differs from another only in its balancing runs nothing else. An HTTP/2 client leg needs a
    /// contender that speaks h2c, and for direct, an origin listening for h2c; an HTTP/2 origin leg, a contender that speaks
    /// h2c to origins.
    /// </summary>
    public bool IsFor(Contender contender) => Tcp
        ? contender.TcpOnly || contender.Kind == ContenderKind.Direct
        : !contender.TcpOnly
            && (!Legs.ClientHttp2 || (contender.ClientHttp2Arguments is not null && (contender.Kind != ContenderKind.Direct || DirectPort is not null)))
            && (Legs.OriginHttp2 ? contender.OriginHttp2Arguments is not null : !contender.OriginHttp2Only)
            && (OriginPorts.Count > 1 ? contender.TakesSeveralOrigins : !contender.BalancingOnly);

    /// <summary>
    /// The starts of each contender in a round: the http shapes in front of the shapes' origin, then each pair of schemes
    /// in front of the same origin's TLS port, then the bundled origin for the WebSocket echo and the 1 GiB bodies (one start
    /// when that is also the shapes' origin), then the balancing shapes in front of <see cref="OriginPlan.Balance"/>. The
    /// shapes with HTTP/2 to the origin go to <see cref="OriginPlan.Http2OriginPort"/>, direct's target the same port.
    /// Idle connections go with the plain start in front of the shapes' origin. With TCP shapes, the TCP relays (and direct)
    /// get the idle connections and the 1 GiB bodies too (the <c>tcp-1gib</c> and idle rows): when every shape is a TCP
    /// shape, only they do.
    /// </summary>
    public static List<SessionWork> Plan(OriginPlan origins, IReadOnlyList<LoadShape> shapes, bool largeBodies, bool idle)
    {
        var shapesOrigin = origins.ShapesOrigin == OriginKind.Nginx ? "nginx" : "bundled";
        var works = new List<SessionWork>();
        SessionWork Get(IReadOnlyList<int> originPorts, int? directPort, Legs legs, string origin)
        {
            var index = works.FindIndex(w => w.OriginPorts.SequenceEqual(originPorts) && w.DirectPort == directPort && w.Legs == legs);
            if (index < 0)
            {
                works.Add(new SessionWork(originPorts, directPort, legs, [], false, false, origin));
                index = works.Count - 1;
            }

            return works[index];
        }

        void Update(SessionWork work, Func<SessionWork, SessionWork> change) => works[works.IndexOf(work)] = change(work);

        foreach (var group in shapes.Where(s => !s.IsWebSocket && !s.IsBalance && !s.Tcp && !s.Legs.OriginHttp2).GroupBy(s => s.Legs).OrderBy(g => g.Key.AnyTls))
        {
            var legs = group.Key;
            var port = legs.OriginTls ? origins.ShapesTlsPort!.Value : origins.ShapesPort;
            var direct = legs.ClientHttp2 ? origins.ShapesH2cPort : legs.ClientTls ? origins.ShapesTlsPort!.Value : origins.ShapesPort;
            var work = Get([port], direct, legs, shapesOrigin);
            Update(work, w => w with { Shapes = [.. w.Shapes, .. group] });
        }

        foreach (var group in shapes.Where(s => s.Legs.OriginHttp2).GroupBy(origins.Http2OriginPort))
        {
            var origin = origins.Origins.First(o => o.Port == group.Key || o.H2cPort == group.Key);
            var work = Get([group.Key], group.Key, group.First().Legs, origin.H2cPort == group.Key ? $"{shapesOrigin} h2c" : origin.Label);
            Update(work, w => w with { Shapes = [.. w.Shapes, .. group] });
        }

        var tcpOnly = shapes.All(s => s.Tcp);
        if (idle && !tcpOnly)
        {
            var work = Get([origins.ShapesPort], origins.ShapesPort, Legs.Plain, shapesOrigin);
            Update(work, w => w with { IdleConnections = true });
        }

        if (origins.BundledPort is { } bundled && !tcpOnly)
        {
            var echo = shapes.Where(s => s.IsWebSocket).ToList();
            var work = Get([bundled], bundled, Legs.Plain, "bundled");
            Update(work, w => w with { Shapes = [.. w.Shapes, .. echo], LargeBodies = largeBodies });
        }

        if (origins.Balance.Count > 0)
        {
            var work = Get([.. origins.Balance.Select(o => o.Port)], null, Legs.Plain, string.Join(" + ", origins.Balance.Select(o => o.Label)));
            Update(work, w => w with { Shapes = [.. w.Shapes, .. shapes.Where(s => s.IsBalance)] });
        }

        if (shapes.Any(s => s.Tcp))
        {
            var bodies = largeBodies && origins.BundledPort == origins.ShapesPort;
            works.Add(new SessionWork([origins.ShapesPort], origins.ShapesPort, Legs.Plain, [.. shapes.Where(s => s.Tcp)], bodies, idle, shapesOrigin, Tcp: true));
            if (largeBodies && !bodies && origins.BundledPort is { } tcpBundled)
            {
                works.Add(new SessionWork([tcpBundled], tcpBundled, Legs.Plain, [], true, false, "bundled", Tcp: true));
            }
        }

        return [.. works.Where(w => w.Shapes.Count > 0 || w.LargeBodies || w.IdleConnections)];
    }
}
