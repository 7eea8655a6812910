namespace LLRP.Configuration;

/// <summary>How a request reaches the downstream.</summary>
public enum ProxyMode
{
    /// <summary>LLRP's own HTTP/1.1 client over pooled sockets (the prototype's "llhttp").</summary>
    Raw,

    /// <summary><c>HttpMessageInvoker</c> over <c>SocketsHttpHandler</c>.</summary>
    HttpClient,

    /// <summary>A light <c>HttpContext</c> per request, then <c>HttpMessageInvoker</c>.</summary>
    HttpClientWithContext,

    /// <summary>A light <c>HttpContext</c> per request, then YARP's <c>IHttpForwarder</c>.</summary>
    Yarp,
}
