namespace LLRP.Bench.Results;

/// <summary>Which way a large body travels.</summary>
public enum TransferDirection
{
    /// <summary>A 1 GiB response from the origin (<c>GET /?s=1073741824</c>).</summary>
    Download,

    /// <summary>A 1 GiB request body to the origin's <c>/sink</c>.</summary>
    Upload,
}
