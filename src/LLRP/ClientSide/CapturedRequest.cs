namespace LLRP.ClientSide;

/// <summary>Where a request's access log fields are in <see cref="AccessLogRecorder"/>'s text: offsets and lengths.</summary>
internal readonly record struct CapturedRequest(int LineStart, int LineLength, int RefererStart, int RefererLength, int UserAgentStart, int UserAgentLength);
