/// Why the server closes a live session: each case is one row of docs/live-protocol.md's close-code table, with
/// its WebSocket close code and the reason sent in the close frame (`field: what is wrong`).
public enum LiveClose: Sendable, Equatable, Error {
    /// `end` received and the summary sent (1000).
    case ended
    /// The server is shutting down; the client should reconnect to another process or in a moment (1001).
    case goingAway
    /// A WebSocket frame the protocol does not allow (1002).
    case invalidWebSocketFrame
    /// A client frame without a mask (1002; RFC 6455 §5.1).
    case unmaskedFrame
    /// A frame with a reserved bit set while no extension was negotiated (1002; RFC 6455 §5.2).
    case reservedBitsSet
    /// A binary pose frame that does not parse (1007).
    case badFrame(LiveProblem)
    /// More frames a second than the limit, sustained over a second (1008).
    case framesTooFast(perSecond: Int)
    /// Frames queued faster than the session can analyse them (1008).
    case analysisBacklog
    /// No message for the idle limit (1008).
    case idle(seconds: Double)
    /// More than `bytes` of events wait for a client that does not read them (1008).
    case clientNotReading(bytes: Int)
    /// A message over the size limit, whole or in fragments (1009).
    case messageTooLarge(bytes: Int)
    /// The server failed (1011); `what` says what could not be done ("the set could not be saved").
    case serverFailed(what: String)
    /// The server could not open the session now: its database did not answer in time (more sessions and requests
    /// at once than it serves). Nothing was counted; the client should retry in a moment (1013, "Try Again Later").
    case serverBusy
    /// A control message that is malformed or not allowed now, or frames before `start` (4400).
    case badControl(LiveProblem)
    /// No valid token (4401); the problem's field is `token`.
    case unauthorized(LiveProblem)
    /// No hello with a token within `seconds` of opening (4401).
    case noHello(seconds: Double)
    /// `workoutId` does not name one of the caller's workouts (4404).
    case workoutNotFound(id: String)
    /// The workout has no run in progress (4409).
    case workoutNotInProgress
    /// The person already has `limit` open sessions (4429).
    case tooManySessions(limit: Int)
    /// A watcher (docs/community.md, "Live watching") fell `events` events behind and is dropped (1008).
    case watcherTooSlow(events: Int)
    /// A watch socket refused: `code` is 4400 (bad message), 4403 (not an approved follower), 4404 (no such person,
    /// or not live), 4409 (the session runs on another server process) or 4429 (too many watchers); the problem
    /// names the field.
    case watchRefused(code: Int, LiveProblem)

    /// The WebSocket close code (RFC 6455 §7.4; 4000–4999 are the protocol's own, after HTTP's statuses).
    public var code: Int {
        switch self {
        case .ended: 1000
        case .goingAway: 1001
        case .invalidWebSocketFrame, .unmaskedFrame, .reservedBitsSet: 1002
        case .badFrame: 1007
        case .framesTooFast, .analysisBacklog, .idle, .clientNotReading, .watcherTooSlow: 1008
        case .messageTooLarge: 1009
        case .serverFailed: 1011
        case .serverBusy: 1013
        case .badControl: 4400
        case .unauthorized, .noHello: 4401
        case .workoutNotFound: 4404
        case .workoutNotInProgress: 4409
        case .tooManySessions: 4429
        case .watchRefused(let code, _): code
        }
    }

    /// The close frame's reason; at most 123 bytes once sent (``truncated(_:toBytes:)``).
    public var reason: String {
        switch self {
        case .ended: "session ended"
        case .goingAway: "server: shutting down; reconnect in a moment"
        case .invalidWebSocketFrame: "frame: not a valid WebSocket frame"
        case .unmaskedFrame: "frame: a client must mask every frame"
        case .reservedBitsSet: "frame: reserved bits must be 0; no extension is negotiated"
        case .badFrame(let problem), .badControl(let problem), .unauthorized(let problem), .watchRefused(_, let problem):
            problem.description
        case .framesTooFast(let perSecond): "frames: more than \(perSecond) a second"
        case .analysisBacklog: "client: frames arrive faster than they can be analysed"
        case .idle(let seconds): "idle: no message for \(Self.seconds(seconds)) s"
        case .clientNotReading(let bytes): "client: more than \(bytes / 1024) KiB of events are waiting to be read"
        case .messageTooLarge(let bytes): "message: larger than \(bytes) bytes"
        case .serverFailed(let what): "server: \(what); try again"
        case .serverBusy: "server: busy, the database did not answer in time; retry in a moment"
        case .noHello(let seconds): "token: no hello with a token within \(Self.seconds(seconds)) s"
        case .workoutNotFound(let id): "workoutId: no workout '\(Self.truncated(id, toBytes: 60))'"
        case .workoutNotInProgress: "workoutId: the workout is not in progress; start it first"
        case .tooManySessions(let limit): "sessions: at most \(limit) open live sessions per person"
        case .watcherTooSlow(let events): "watcher: more than \(events) events waited to be sent; dropped"
        }
    }

    /// The largest reason a close frame carries: 125 bytes of control-frame payload less the 2-byte code.
    public static let maximumReasonBytes = 123

    /// `text` cut to at most `limit` UTF-8 bytes on a character boundary, with `...` when it was cut.
    public static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + String(character).utf8.count <= limit - 3 else { break }
            result.append(character)
        }
        return result + "..."
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
