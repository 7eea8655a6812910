namespace LLRP.Upstream.Sockets;

/// <summary>Where an exchange whose request went behind another's on one connection stands (<see cref="ResponseLine"/>).</summary>
internal enum LinePlace
{
    /// <summary>Its request is written; responses before its own are still to be read.</summary>
    Waiting,

    /// <summary>The connection came to it: it reads its own response.</summary>
    Turn,

    /// <summary>It stopped waiting (its response headers timeout, its client's reset): the exchanges behind it cannot be answered on the connection.</summary>
    Abandoned,

    /// <summary>The connection failed, or closed, before its turn: its request goes again on another.</summary>
    Lost,
}
