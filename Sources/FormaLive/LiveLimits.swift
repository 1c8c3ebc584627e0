/// The limits a live session enforces (docs/live-protocol.md, "Limits and back-pressure").
public struct LiveLimits: Sendable, Equatable {
    /// Largest message, text or binary, after reassembling fragments.
    public var maximumMessageBytes = 4096
    /// Frames per second sustained over a second (a token bucket of this size refilled at this rate).
    public var maximumFramesPerSecond = 60
    /// Seconds without any message before the session is closed.
    public var idleSeconds: Double = 30
    /// Seconds a browser has to send `hello` after opening.
    public var helloSeconds: Double = 10
    /// Open sessions per person.
    public var maximumSessionsPerPerson = 3
    /// Bytes of events waiting to be written before a client that does not read is disconnected.
    public var maximumPendingBytes = 256 * 1024
    /// Durations a timed challenge may have, in seconds.
    public static let challengeSeconds = 10...600
    /// Seconds of the server's clock a challenge may run beyond its length (network delays) before it ends anyway.
    public var challengeGraceSeconds: Double = 2

    public init() {}
}
