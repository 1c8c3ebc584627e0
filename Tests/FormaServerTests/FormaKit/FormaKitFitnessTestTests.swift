import FormaKit
import FormaMotion
import FormaMotionLab
import Foundation
import Testing

@testable import FormaServer

/// A native host's fitness test through FormaKit against a running server: Core Motion-like samples converted by
/// ``MotionRecording`` are counted, and a faster second test moves the level up.
@Suite("FormaKit fitness tests against a running server")
struct FormaKitFitnessTestTests {
    private func base(_ server: LiveTestServer) -> URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    /// A synthetic wrist set (FormaMotionLab) as Core Motion delivers it: boot-time clock, user acceleration and
    /// gravity apart, rotation in rad/s.
    private func samples(reps: Int, period: Double, seed: UInt64) throws -> [MotionSample] {
        var rng = SeededGenerator(seed: seed)
        let set = InertialSyntheticSet(
            repetitions: reps, sampleRateHertz: 50, periodSeconds: period, tempoJitter: 0.05, restBeforeSeconds: 3,
            restAfterSeconds: 3, gravity: Vector3(x: 0, y: -1, z: 0))
        let recording = try set.generate(using: &rng).recording
        let rotation = try #require(recording.rotation)
        let gravity = MotionSample.Vector(x: 0, y: -1, z: 0)
        return recording.timesSeconds.indices.map { index in
            let a = recording.acceleration[index]
            let r = rotation[index]
            return MotionSample(
                timestamp: 9_000 + recording.timesSeconds[index],
                userAcceleration: .init(x: a.x - gravity.x, y: a.y - gravity.y, z: a.z - gravity.z), gravity: gravity,
                rotationRate: .init(x: r.x * .pi / 180, y: r.y * .pi / 180, z: r.z * .pi / 180))
        }
    }

    private func takeTest(_ kit: FormaKit, reps: Int, period: Double, seed: UInt64) async throws -> FitnessTest {
        let test = try await kit.startFitnessTest(category: "strength", exerciseIds: ["Pushups"])
        #expect(test.remaining == ["Pushups"] && !test.isCompleted)
        let recording = try MotionRecording(
            samples: try samples(reps: reps, period: period, seed: seed), recordedAt: Date())
        return try await kit.recordFitnessTestExercise(testId: test.id, exerciseId: "Pushups", recording: recording)
    }

    @Test func aNativeHostRecordsWithCoreMotionSamples_andTheLevelGoesUp() async throws {
        try await withLiveServer { app, server in
            // setup
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(baseURL: base(server), apiKey: key, companyName: "Acme", userId: "user-42")
            try await kit.trackExercise(id: "Pushups")

            // act
            let baseline = try await takeTest(kit, reps: 8, period: 2.5, seed: 3)
            let faster = try await takeTest(kit, reps: 10, period: 2.0, seed: 4)

            // verify: counted from the converted samples, compared with the previous test, one level up
            let first = try #require(baseline.exercises.first?.result)
            let second = try #require(faster.exercises.first)
            #expect(baseline.isCompleted && baseline.level?.after == 1 && baseline.level?.levelledUp == false)
            #expect(abs(first.reps - 8) <= 1 && abs((second.result?.reps ?? 0) - 10) <= 1)
            #expect(second.previous == first)
            #expect((second.change ?? 0) > 0.05)
            #expect(faster.level.map { ($0.before, $0.after, $0.levelledUp) } ?? (0, 0, false) == (1, 2, true))
        }
    }

    @Test func anUntrackedExercise_isRefusedNamingIt() async throws {
        try await withLiveServer { app, server in
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(baseURL: base(server), apiKey: key, companyName: "Acme", userId: "user-42")
            try await kit.trackExercise(id: "Pushups")
            try await kit.untrackExercise(id: "Pushups")

            await #expect {
                _ = try await kit.startFitnessTest(category: "strength", exerciseIds: ["Pushups"])
            } throws: { error in
                guard case .server(let status, _, _, let fields) = error as? FormaError else { return false }
                return status == 422 && fields.map(\.field) == ["exerciseIds[0]"]
            }
        }
    }
}
