import FormaMotion
import FormaMotionLab
import Foundation
import Testing

@testable import FormaServer

/// The JSON of the fitness endpoints as a client sees it.
struct MotionBody: Encodable {
    var exerciseId: String?
    var recordedAt = "2027-01-15T08:00:00Z"
    var hint: String?
    var sampleRate: Double?
    var t: [Double]?
    var accel: [[Double]]
    var gyro: [[Double]]?

    /// A synthetic wrist recording of `repetitions` at `rate` Hz, seeded, with rest before and after; the period
    /// sets the pace (a shorter period is a faster rate).
    static func set(
        repetitions: Int, rate: Double = 50, period: Double = 2.5, seed: UInt64 = 1, exerciseId: String? = nil,
        gyroscope: Bool = true
    ) throws -> MotionBody {
        var random = SeededGenerator(seed: seed)
        let set = InertialSyntheticSet(
            repetitions: repetitions, sampleRateHertz: rate, periodSeconds: period, tempoJitter: 0.05,
            includesRotation: gyroscope)
        let recording = try set.generate(using: &random).recording
        return MotionBody(
            exerciseId: exerciseId, sampleRate: rate,
            accel: recording.acceleration.map { [$0.x, $0.y, $0.z] },
            gyro: recording.rotation?.map { [$0.x, $0.y, $0.z] })
    }
}

struct MotionResultBody: Decodable {
    struct Repetition: Decodable {
        let number: Int
        let startSeconds: Double
        let endSeconds: Double
        let durationSeconds: Double
    }

    let id: String
    let exerciseId: String?
    let exerciseName: String?
    let fitnessTestId: String?
    let reps: Int
    let ratePerMinute: Double?
    let cadenceVariation: Double?
    let activeStartSeconds: Double?
    let activeEndSeconds: Double?
    let repetitions: [Repetition]
    let sampleRate: Double
    let durationSeconds: Double
    let usedRotation: Bool
}

struct FitnessTestBody: Decodable {
    struct Exercise: Decodable {
        let exerciseId: String
        let name: String
        let result: MotionResultBody?
        let previous: MotionResultBody?
        let change: Double?
    }

    struct Level: Decodable {
        let before: Int
        let after: Int
        let levelledUp: Bool
        let improvement: Double?
        let reason: String
    }

    let id: String
    let category: String
    let status: String
    let exercises: [Exercise]
    let remaining: [String]
    let level: Level?
}

struct FitnessLevelBody: Decodable {
    let level: Int
    let name: String
    let testsCompleted: Int
}

struct TrackingBody: Decodable {
    let exerciseId: String
    let tracked: Bool
}

struct TrackedListBody: Decodable {
    struct Item: Decodable {
        let exerciseId: String
        let name: String
        let category: String
    }

    let items: [Item]
}

extension Trainee {
    func track(_ exerciseIDs: String...) async throws {
        for id in exerciseIDs {
            let reply = try await api.send(.PUT, "/v1/me/tracked-exercises/\(id)", headers: headers)
            #expect(reply.status == .ok, "track \(id): \(reply.text)")
        }
    }

    func startTest(_ body: [String: any Encodable & Sendable]) async throws -> APIClient.Reply {
        try await api.send(.POST, "/v1/fitness-tests", headers: headers, json: AnyBody(body))
    }

    func record(_ testID: String, _ exerciseID: String, _ body: MotionBody) async throws -> APIClient.Reply {
        try await api.send(
            .POST, "/v1/fitness-tests/\(testID)/exercises/\(exerciseID)/motion", headers: headers, json: body)
    }
}

/// A JSON object of mixed values, for request bodies that tests vary field by field.
struct AnyBody: Encodable {
    let fields: [String: any Encodable & Sendable]

    init(_ fields: [String: any Encodable & Sendable]) { self.fields = fields }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in fields { try container.encode(value, forKey: Key(stringValue: key)) }
    }
}
