namespace LLRP.Configuration.Routes;

/// <summary>YARP's <c>AvailableDestinationsPolicy</c> names.</summary>
public enum AvailableDestinationsPolicy
{
    /// <summary>Only destinations not ejected nor probed down take requests; none left gives 503 (YARP's default).</summary>
    HealthyAndUnknown,

    /// <summary>As <see cref="HealthyAndUnknown"/>, but when none is left every destination takes requests again.</summary>
    HealthyOrPanic,
}
