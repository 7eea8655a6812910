using LLRP.Http1.Transforms;

namespace LLRP.ClientSide;

/// <summary>
/// What the routing of a batch sets on the response that answers it, whatever front end writes that response: the route's
/// response transforms and the session affinity's binding.
/// </summary>
internal interface IRoutedResponse
{
    /// <summary>The response transforms of the route of the batch being answered.</summary>
    ResponseTransforms Transforms { set; }

    /// <summary>A field line every final response of the batch carries (<c>Name: value\r\n</c>, the session affinity's binding); empty for none.</summary>
    byte[] AffinityLine { set; }
}
