namespace LLRP.Bench.Origins;

/// <summary>What serves the origin's contract (<c>GET /?s=N</c>, <c>POST /sink</c>) behind the contenders.</summary>
public enum OriginKind
{
    /// <summary>nginx serving fixed files (scripts/nginx-origin.sh): the shapes' sizes only, never the ceiling.</summary>
    Nginx,

    /// <summary>The bundled Kestrel origin (src/LLRP.Downstream): every size, and a /sink that counts and checks the upload.</summary>
    Bundled,
}
