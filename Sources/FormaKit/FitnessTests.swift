import FormaAPI
import Foundation

/// A full fitness test (docs/fitness-tests.md): some of the person's tracked exercises of one category, each recorded
/// from the phone's motion (``MotionRecording``) and shown beside the previous result; once every exercise is
/// recorded the test is `completed` with the person's level.
public struct FitnessTest: Sendable, Hashable, Identifiable {
    public var id: String
    public var category: String
    /// `in_progress` or `completed`.
    public var status: String
    public var exercises: [Exercise]
    /// Exercise ids still to record, in order.
    public var remaining: [String]
    public var level: LevelChange?

    public var isCompleted: Bool { status == "completed" }

    public struct Exercise: Sendable, Hashable {
        public var exerciseId: String
        public var name: String
        public var result: Result?
        /// The same exercise in the person's previous completed test.
        public var previous: Result?
        /// `result` rate over `previous` rate, minus 1 (0.1 = 10 % faster).
        public var change: Double?
    }

    /// What the server counted in one recording.
    public struct Result: Sendable, Hashable {
        public var reps: Int
        /// Repetitions per minute over the active part; `nil` below two repetitions.
        public var ratePerMinute: Double?
        public var durationSeconds: Double
        public var recordedAt: Date
    }

    /// The level (1–10) before and after a completed test, and why.
    public struct LevelChange: Sendable, Hashable {
        public var before: Int
        public var after: Int
        public var levelledUp: Bool
        public var reason: String
    }
}

extension FitnessTest {
    init(_ api: Components.Schemas.FitnessTest) {
        id = api.id
        category = api.category
        status = api.status.rawValue
        exercises = api.exercises.map {
            Exercise(
                exerciseId: $0.exerciseId, name: $0.name, result: $0.result.map(Result.init),
                previous: $0.previous.map(Result.init), change: $0.change)
        }
        remaining = api.remaining
        level = api.level.map {
            LevelChange(before: $0.before, after: $0.after, levelledUp: $0.levelledUp, reason: $0.reason)
        }
    }
}

extension FitnessTest.Result {
    init(_ api: Components.Schemas.MotionTestResult) {
        reps = api.reps
        ratePerMinute = api.ratePerMinute
        durationSeconds = api.durationSeconds
        recordedAt = api.recordedAt
    }
}

extension MotionRecording {
    var api: Components.Schemas.MotionRecording {
        .init(exerciseId: exerciseId, recordedAt: recordedAt, t: t, accel: accel, gyro: gyro)
    }
}

extension FormaKit {
    /// Tracks an exercise (`PUT /v1/me/tracked-exercises/{id}`): full fitness tests draw from the tracked ones.
    public func trackExercise(id: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.trackExercise(path: .init(exerciseId: id)).ok
        }
    }

    /// Stops tracking an exercise; its results are kept.
    public func untrackExercise(id: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.untrackExercise(path: .init(exerciseId: id)).ok
        }
    }

    /// Starts a fitness test of `category` over the named tracked exercises, or, with `exerciseIds` empty, over
    /// `count` of them that Forma picks (the ones tested longest ago first).
    public func startFitnessTest(category: String, exerciseIds: [String] = [], count: Int? = nil)
        async throws(FormaError) -> FitnessTest
    {
        try await call { client in
            FitnessTest(try await client.createFitnessTest(body: .json(.init(
                category: category, exerciseIds: exerciseIds.isEmpty ? nil : exerciseIds,
                count: exerciseIds.isEmpty ? count : nil))).created.body.json)
        }
    }

    /// Sends one exercise's recording (`POST /v1/fitness-tests/{id}/exercises/{exerciseId}/motion`); the answer is
    /// the whole test, completed with the level when this was the last exercise.
    public func recordFitnessTestExercise(testId: String, exerciseId: String, recording: MotionRecording)
        async throws(FormaError) -> FitnessTest
    {
        var body = recording.api
        body.exerciseId = exerciseId
        let sent = body
        return try await call { client in
            FitnessTest(try await client.recordFitnessTestExercise(
                path: .init(id: testId, exerciseId: exerciseId), body: .json(sent)).ok.body.json)
        }
    }
}
