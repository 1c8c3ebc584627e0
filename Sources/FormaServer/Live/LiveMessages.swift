import FormaMotion
import Foundation

/// A control message from the client (docs/live-protocol.md, "Control messages").
enum LiveControl: Equatable {
    case hello(token: String)
    /// `exerciseId` is the catalogue id of the workout item this set belongs to, when the client knows it.
    /// `challengeSeconds` makes the session a timed challenge (docs/live-protocol.md, "Timed challenges").
    case start(
        exercise: String, workoutID: String?, exerciseID: String?, aspectRatio: Double?, challengeSeconds: Int? = nil)
    case exercise(exercise: String, exerciseID: String?)
    case pause
    case resume
    case end

    struct Problem: Error, Equatable, CustomStringConvertible {
        let field: String
        let message: String
        var description: String { "\(field): \(message)" }
    }

    static func parse(_ text: String) throws(Problem) -> LiveControl {
        guard let data = text.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { throw Problem(field: "message", message: "must be a JSON object") }
        func string(_ key: String, required: Bool) throws(Problem) -> String? {
            guard let value = object[key], !(value is NSNull) else {
                if required { throw Problem(field: key, message: "is required") }
                return nil
            }
            guard let string = value as? String, !string.isEmpty, string.utf8.count <= 200 else {
                throw Problem(field: key, message: "must be a non-empty string of at most 200 bytes")
            }
            return string
        }
        guard let type = try string("type", required: true) else { throw Problem(field: "type", message: "is required") }
        switch type {
        case "hello":
            return .hello(token: try string("token", required: true)!)
        case "start":
            var aspectRatio: Double?
            if let value = object["aspectRatio"], !(value is NSNull) {
                // JSON true is an NSNumber too, and on Linux `1 is Bool` holds: tell booleans by their type code.
                guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
                    number.doubleValue.isFinite,
                    (0.1...10).contains(number.doubleValue)
                else { throw Problem(field: "aspectRatio", message: "must be a number from 0.1 to 10") }
                aspectRatio = number.doubleValue
            }
            var challengeSeconds: Int?
            if let value = object["challengeSeconds"], !(value is NSNull) {
                guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
                    number.doubleValue == number.doubleValue.rounded(),
                    (LiveLimits.challengeSeconds).contains(number.intValue)
                else {
                    throw Problem(
                        field: "challengeSeconds",
                        message: "must be a whole number of seconds from \(LiveLimits.challengeSeconds.lowerBound) to \(LiveLimits.challengeSeconds.upperBound)")
                }
                challengeSeconds = number.intValue
            }
            return .start(
                exercise: try string("exercise", required: true)!, workoutID: try string("workoutId", required: false),
                exerciseID: try string("exerciseId", required: false), aspectRatio: aspectRatio,
                challengeSeconds: challengeSeconds)
        case "exercise":
            return .exercise(
                exercise: try string("exercise", required: true)!, exerciseID: try string("exerciseId", required: false))
        case "pause": return .pause
        case "resume": return .resume
        case "end": return .end
        default:
            throw Problem(field: "type", message: "unknown message type '\(type)'")
        }
    }
}

/// What one finished set amounted to.
struct LiveSetSummary: Codable, Equatable, Sendable {
    var exercise: String
    var exerciseId: String?
    var reps: Int
    var partials: Int
    var seconds: Double
    var mistakes: [String: Int]
    /// Mean quality (0…1) of the counted repetitions; `nil` without any.
    var quality: Double?
}

/// Server → client events, encoded as the JSON objects of docs/live-protocol.md ("Events").
enum LiveEvent {
    static func ready(session: UUID, limits: LiveLimits) -> String {
        encode(Ready(session: session.uuidString.lowercased(), limits: .init(limits)))
    }

    static func encode(_ event: PoseEvent, exercise: String) -> String {
        switch event {
        case let .repetition(rep):
            return encode(Rep(
                exercise: exercise, count: rep.number, start: rounded(rep.startSeconds), end: rounded(rep.endSeconds),
                duration: rounded(rep.durationSeconds), tempo: rep.tempo, rangeOfMotion: rounded(rep.rangeOfMotion, 1),
                unit: rep.unit, quality: rounded(rep.quality), mistakes: rep.cues.map(\.code)))
        case let .partialRepetition(partial):
            return encode(Partial(
                exercise: exercise, start: rounded(partial.startSeconds), end: rounded(partial.endSeconds),
                rangeOfMotion: rounded(partial.rangeOfMotion, 1), requiredRange: rounded(partial.requiredRange, 1),
                code: partial.cue.code, message: partial.cue.message))
        case let .mistake(cue):
            return encode(Mistake(
                exercise: exercise, code: cue.code, message: cue.message, t: rounded(cue.timeSeconds),
                repetition: cue.repetition))
        case let .leftFrame(since):
            return encode(Presence(type: "left_frame", t: rounded(since)))
        case let .returnedToFrame(at):
            return encode(Presence(type: "returned_frame", t: rounded(at)))
        }
    }

    static func challenge(exercise: String, seconds: Int, reps: Int, completed: Bool) -> String {
        encode(ChallengeEvent(exercise: exercise, seconds: seconds, reps: reps, completed: completed))
    }

    private struct ChallengeEvent: Encodable {
        var type = "challenge"
        var exercise: String
        var seconds: Int
        var reps: Int
        var completed: Bool
    }

    static func set(_ summary: LiveSetSummary) -> String {
        encode(SetEvent(type: "set", summary: summary))
    }

    static func summary(_ sets: [LiveSetSummary]) -> String {
        encode(Summary(sets: sets.map { SetEvent(type: nil, summary: $0) }))
    }

    private static func rounded(_ value: Double, _ digits: Int = 2) -> Double {
        let scale = digits == 1 ? 10.0 : 100.0
        return (value * scale).rounded() / scale
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return #"{"type":"error"}"#
        }
        return text
    }

    private struct Ready: Encodable {
        var type = "ready"
        var session: String
        var limits: Limits
        struct Limits: Encodable {
            var maxFrameBytes: Int
            var maxFramesPerSecond: Int
            var idleSeconds: Double
            init(_ limits: LiveLimits) {
                maxFrameBytes = limits.maximumMessageBytes
                maxFramesPerSecond = limits.maximumFramesPerSecond
                idleSeconds = limits.idleSeconds
            }
        }
    }

    private struct Rep: Encodable {
        var type = "rep"
        var exercise: String
        var count: Int
        var start: Double
        var end: Double
        var duration: Double
        var tempo: String
        var rangeOfMotion: Double
        var unit: String
        var quality: Double
        var mistakes: [String]
    }

    private struct Partial: Encodable {
        var type = "partial"
        var exercise: String
        var start: Double
        var end: Double
        var rangeOfMotion: Double
        var requiredRange: Double
        var code: String
        var message: String
    }

    private struct Mistake: Encodable {
        var type = "mistake"
        var exercise: String
        var code: String
        var message: String
        var t: Double
        var repetition: Int?
    }

    private struct Presence: Encodable {
        var type: String
        var t: Double
    }

    private struct SetEvent: Encodable {
        var type: String?
        var summary: LiveSetSummary

        enum CodingKeys: String, CodingKey {
            case type, exercise, exerciseId, reps, partials, seconds, mistakes
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(type, forKey: .type)
            try container.encode(summary.exercise, forKey: .exercise)
            try container.encodeIfPresent(summary.exerciseId, forKey: .exerciseId)
            try container.encode(summary.reps, forKey: .reps)
            try container.encode(summary.partials, forKey: .partials)
            try container.encode((summary.seconds * 10).rounded() / 10, forKey: .seconds)
            try container.encode(summary.mistakes, forKey: .mistakes)
        }
    }

    private struct Summary: Encodable {
        var type = "summary"
        var sets: [SetEvent]
    }
}

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
