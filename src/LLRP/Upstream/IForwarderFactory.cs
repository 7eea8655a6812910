namespace LLRP.Upstream;

/// <summary>Creates the forwarder of the configured mode for each client connection.</summary>
internal interface IForwarderFactory
{
    IRequestForwarder Create(ForwarderContext context);
}
