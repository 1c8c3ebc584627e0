import Foundation

/// A control message from a live client, the JSON text of docs/live-protocol.md ("Control messages").
public enum LiveControl: Sendable, Equatable, Codable {
    case hello(token: String)
    /// `exerciseID` is the catalogue id of the workout item this set belongs to, when the client knows it;
    /// `aspectRatio` the camera image's width over height; `challengeSeconds` makes the session a timed challenge.
    /// `source` says where the landmarks come from (a camera unless the client says it replays a recording);
    /// `progress` asks for `progress` events (a client that shows a repetition ring), which are not sent otherwise.
    case start(
        exercise: String, workoutID: String? = nil, exerciseID: String? = nil, aspectRatio: Double? = nil,
        challengeSeconds: Int? = nil, source: LiveSource? = nil, progress: Bool? = nil)
    case exercise(exercise: String, exerciseID: String? = nil)
    case pause
    case resume
    case end

    /// Longest string field, in UTF-8 bytes.
    public static let maximumStringBytes = 200
    /// The camera aspect ratios `start` accepts.
    public static let aspectRatios: ClosedRange<Double> = 0.1...10

    /// Parses one text message.
    ///
    /// - Throws: ``LiveProblem`` naming the field: `message` when the text is not a JSON object, `type` for an
    ///   unknown or missing type, or the field that is missing or out of range.
    public static func parse(_ text: String) throws(LiveProblem) -> LiveControl {
        do {
            return try JSONDecoder().decode(LiveControl.self, from: Data(text.utf8))
        } catch let problem as LiveProblem {
            throw problem
        } catch {
            throw LiveProblem(field: "message", message: "must be a JSON object")
        }
    }

    /// The message as JSON text, keys sorted.
    public var jsonText: String { LiveJSON.text(self) }

    private enum Key: String, CodingKey {
        case type, token, exercise, workoutId, exerciseId, aspectRatio, challengeSeconds, source, progress
    }

    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<Key>
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch {
            throw LiveProblem(field: "message", message: "must be a JSON object")
        }
        guard let type = try Self.string(.type, in: container) else {
            throw LiveProblem(field: "type", message: "is required")
        }
        switch type {
        case "hello":
            self = .hello(token: try Self.required(.token, in: container))
        case "start":
            // Checked in this order, so that a message with several faults is always refused for the same one.
            let aspectRatio = try Self.number(
                .aspectRatio, problem: "must be a number from 0.1 to 10", valid: Self.aspectRatios.contains, in: container)
            let seconds = LiveLimits.challengeSeconds
            let challengeSeconds = try Self.number(
                .challengeSeconds,
                problem: "must be a whole number of seconds from \(seconds.lowerBound) to \(seconds.upperBound)",
                valid: { $0 == $0.rounded() && Double(seconds.lowerBound) <= $0 && $0 <= Double(seconds.upperBound) },
                in: container
            ).map { Int($0) }
            self = .start(
                exercise: try Self.required(.exercise, in: container),
                workoutID: try Self.string(.workoutId, in: container),
                exerciseID: try Self.string(.exerciseId, in: container), aspectRatio: aspectRatio,
                challengeSeconds: challengeSeconds, source: try Self.source(in: container),
                progress: try Self.flag(.progress, in: container))
        case "exercise":
            self = .exercise(
                exercise: try Self.required(.exercise, in: container),
                exerciseID: try Self.string(.exerciseId, in: container))
        case "pause": self = .pause
        case "resume": self = .resume
        case "end": self = .end
        default:
            throw LiveProblem(field: "type", message: "unknown message type '\(type)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .hello(let token):
            try container.encode("hello", forKey: .type)
            try container.encode(token, forKey: .token)
        case let .start(exercise, workoutID, exerciseID, aspectRatio, challengeSeconds, source, progress):
            try container.encode("start", forKey: .type)
            try container.encodeIfPresent(progress, forKey: .progress)
            try container.encodeIfPresent(source, forKey: .source)
            try container.encode(exercise, forKey: .exercise)
            try container.encodeIfPresent(workoutID, forKey: .workoutId)
            try container.encodeIfPresent(exerciseID, forKey: .exerciseId)
            try container.encodeIfPresent(aspectRatio, forKey: .aspectRatio)
            try container.encodeIfPresent(challengeSeconds, forKey: .challengeSeconds)
        case let .exercise(exercise, exerciseID):
            try container.encode("exercise", forKey: .type)
            try container.encode(exercise, forKey: .exercise)
            try container.encodeIfPresent(exerciseID, forKey: .exerciseId)
        case .pause: try container.encode("pause", forKey: .type)
        case .resume: try container.encode("resume", forKey: .type)
        case .end: try container.encode("end", forKey: .type)
        }
    }

    private static func required(_ key: Key, in container: KeyedDecodingContainer<Key>) throws -> String {
        guard let value = try string(key, in: container) else {
            throw LiveProblem(field: key.stringValue, message: "is required")
        }
        return value
    }

    /// A string field; `null` counts as absent.
    private static func string(_ key: Key, in container: KeyedDecodingContainer<Key>) throws -> String? {
        let value: String?
        do {
            value = try container.decodeIfPresent(String.self, forKey: key)
        } catch {
            throw stringProblem(key)
        }
        guard let value else { return nil }
        guard !value.isEmpty, value.utf8.count <= maximumStringBytes else { throw stringProblem(key) }
        return value
    }

    private static func stringProblem(_ key: Key) -> LiveProblem {
        LiveProblem(field: key.stringValue, message: "must be a non-empty string of at most \(maximumStringBytes) bytes")
    }

    /// `source`: `camera` or `replay`; `null` counts as absent.
    private static func source(in container: KeyedDecodingContainer<Key>) throws -> LiveSource? {
        guard let text = try string(.source, in: container) else { return nil }
        guard let source = LiveSource(rawValue: text) else {
            throw LiveProblem(field: "source", message: "must be camera or replay")
        }
        return source
    }

    /// A boolean field; `null` counts as absent.
    private static func flag(_ key: Key, in container: KeyedDecodingContainer<Key>) throws -> Bool? {
        do {
            return try container.decodeIfPresent(Bool.self, forKey: key)
        } catch {
            throw LiveProblem(field: key.stringValue, message: "must be true or false")
        }
    }

    /// A number field (`true` is not one) that `valid` accepts, else `problem`; `null` counts as absent.
    private static func number(
        _ key: Key, problem: String, valid: (Double) -> Bool, in container: KeyedDecodingContainer<Key>
    ) throws -> Double? {
        let problem = LiveProblem(field: key.stringValue, message: problem)
        let value: Double?
        do {
            value = try container.decodeIfPresent(Double.self, forKey: key)
        } catch {
            throw problem
        }
        guard let value else { return nil }
        guard valid(value) else { throw problem }
        return value
    }
}

/// Where a session's landmarks come from. The server cannot see a camera; it trusts the embed page to say when it
/// replays a recording, and a replayed session never scores (docs/live-protocol.md, "Sources").
public enum LiveSource: String, Sendable, Codable, CaseIterable {
    case camera
    case replay
}
