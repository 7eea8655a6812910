using LLRP.Http1.Transforms;

namespace LLRP.Routing;

/// <summary>One route at run time: the cluster its requests go to, and its transforms compiled to bytes.</summary>
internal sealed class Route(string id, Cluster cluster, RequestTransforms requestTransforms, ResponseTransforms responseTransforms)
{
    public string Id { get; } = id;

    public Cluster Cluster { get; } = cluster;

    public RequestTransforms RequestTransforms { get; } = requestTransforms;

    public ResponseTransforms ResponseTransforms { get; } = responseTransforms;
}
