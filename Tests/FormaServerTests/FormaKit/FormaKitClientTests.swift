import FormaKit
import FormaMotion
import FormaMotionLab
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing
import Vapor

@testable import FormaServer

/// FormaKit against a real Forma server on a local port, over URLSession, as a host app uses it.
@Suite("FormaKit against a running server")
struct FormaKitClientTests {
    private func base(_ server: LiveTestServer) -> URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    @Test func aHostAppSignsInWithItsKey_andRunsAWorkout() async throws {
        try await withLiveServer { app, server in
            // setup
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(baseURL: base(server), apiKey: key, companyName: "Acme", userId: "user-42")

            // act
            let page = try await kit.exercises(ExerciseQuery(text: "squat", muscles: ["quadriceps"], perPage: 5))
            let facets = try await kit.catalogueFacets()
            let workout = try await kit.generateWorkout(.muscles(["quadriceps"], minutes: 10, seed: 2))
            let started = try await kit.startWorkout(id: workout.id)
            let paused = try await kit.pauseWorkout(id: workout.id)
            _ = try await kit.resumeWorkout(id: workout.id)
            let first = try #require(workout.items.first)
            let saved = try await kit.saveWorkout(id: workout.id, results: [.init(exerciseId: first.exerciseId, seconds: 60)])
            let completed = try await kit.workouts(.completed)
            let profile = try await kit.updateProfile(ProfileUpdate(displayName: "Ada", age: 34))

            // verify
            #expect(!page.items.isEmpty && page.items.allSatisfy { $0.name.localizedCaseInsensitiveContains("squat") })
            #expect(facets.total == 873)
            #expect(workout.items.contains { $0.poseExercise == "squat" })
            #expect(started.status == .inProgress && paused.status == .paused)
            #expect(saved.status == .completed && saved.results?.first?.seconds == 60)
            #expect(completed.map(\.id) == [workout.id])
            #expect(profile.userId == "user-42" && profile.company.name == "Acme" && profile.displayName == "Ada")
        }
    }

    @Test func plansAndTheLeaderboard() async throws {
        try await withLiveServer { app, server in
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(baseURL: base(server), apiKey: key, companyName: "Acme", userId: "user-42")

            let strength = try await kit.plans(category: "Strength")
            let plan = try #require(strength.first)
            try await kit.enrol(inPlan: plan.id)
            let details = try await kit.plan(id: plan.id)
            let session = try #require(details.levels.first?.sessions.first)
            let workout = try await kit.workout(forPlan: plan.id, session: session.id)
            let board = try await kit.leaderboard(exercise: "squat", seconds: 60)

            #expect(strength.allSatisfy { $0.category == "Strength" })
            #expect(details.summary.enrolled)
            #expect(workout.items.map(\.exerciseId) == session.items.map(\.exerciseId))
            #expect(board.entries.isEmpty && board.me == nil)
            await #expect(throws: FormaError.invalidArgument(
                field: "category", message: "must be Strength, Cardio or Rehabilitation (got 'Yoga')")) {
                _ = try await kit.plans(category: "Yoga")
            }
        }
    }

    @Test func serverErrorsArriveAsFormaErrors_withTheirFields() async throws {
        try await withLiveServer { app, server in
            let key = try await APIClient(app: app).createCompany("Acme")
            let wrongKey = FormaKit(baseURL: base(server), apiKey: "fk_" + String(repeating: "0", count: 43), companyName: "Acme", userId: "u")
            let kit = FormaKit(baseURL: base(server), apiKey: key, companyName: "Acme", userId: "u")
            let nowhere = FormaKit(baseURL: URL(string: "http://127.0.0.1:1")!, token: "ft_x", companyName: "Acme")

            do {
                _ = try await wrongKey.profile()
                Issue.record("a wrong key signed in")
            } catch let error as FormaError {
                #expect(error.status == 401)
            }
            do {
                _ = try await kit.generateWorkout(.muscles(["quadriceps"], minutes: 12))
                Issue.record("12 minutes were accepted")
            } catch let error as FormaError {
                guard case .server(let status, _, _, let fields) = error else { Issue.record("\(error)"); return }
                #expect(status == 422 && fields.map(\.field) == ["minutes"])
            }
            do {
                _ = try await kit.workout(id: "nope")
                Issue.record("a missing workout was found")
            } catch let error as FormaError {
                #expect(error.status == 404)
            }
            do {
                _ = try await nowhere.profile()
                Issue.record("no server answered")
            } catch let error as FormaError {
                guard case .transport = error else { Issue.record("\(error)"); return }
            }
        }
    }

    @Test func anExpiredToken_isRenewedOnce_andTheCallSucceeds() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: a key-based kit signs in; then its token expires on the server
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(baseURL: base(server), apiKey: key, companyName: "Acme", userId: "user-42")
            let first = try await kit.currentToken()
            clock.advance(seconds: 2 * 3600)

            // act
            let profile = try await kit.profile()

            // verify
            #expect(profile.userId == "user-42")
            #expect(try await kit.currentToken() != first)
        }
    }

    @Test func aTokenKit_asksTheHostForANewTokenWhenRefused() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            let stale = try await api.sessionToken(key: key, userId: "user-42").token
            clock.advance(seconds: 2 * 3600)
            let fresh = try await api.sessionToken(key: key, userId: "user-42").token
            let renewals = NIOLockedValueBox(0)
            let kit = FormaKit(baseURL: base(server), token: stale, companyName: "Acme", renewToken: {
                renewals.withLockedValue { $0 += 1 }
                return fresh
            })

            let profile = try await kit.profile()
            _ = try await kit.profile()

            #expect(profile.userId == "user-42")
            #expect(renewals.withLockedValue { $0 } == 1)
        }
    }

    @Test func framesFromLiveFrameEncoder_areTheServersFormat() throws {
        var synthesizer = PoseSynthesizer(exerciseID: "squat", repetitions: [.init()])
        var rng = SeededGenerator(seed: 3)
        let frame = try #require(synthesizer.recording(using: &rng)?.frames.first { $0.landmarks != nil })
        let points = try #require(frame.landmarks).map {
            PoseLandmarkPoint(x: $0.x, y: $0.y, z: $0.z, visibility: $0.visibility)
        }

        let data = try LiveFrameEncoder.encode(timeSeconds: 1.5, landmarks: points)
        let empty = try LiveFrameEncoder.encode(timeSeconds: 2, landmarks: nil)

        #expect(data == Data(LiveFrameCodec.encode(PoseFrame(timeSeconds: 1.5, landmarks: frame.landmarks))))
        let parsed = try LiveFrameCodec.decode(data, previousTime: nil)
        #expect(parsed.timeSeconds == 1.5 && parsed.landmarks?.count == 33)
        #expect(try LiveFrameCodec.decode(empty, previousTime: 1.5).landmarks == nil)
    }
}
